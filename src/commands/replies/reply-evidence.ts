/**
 * Evidence for a reply: the references of spec §2.6, derived from the memory items a recall search returned and
 * the recall trace recorded for that search. Pure.
 *
 * - `authority.role`: `authoritative` for an `approved_source` item, `supporting` for `reference`, `unverified`
 *   for `unverified`; `authority.score` 1.0 / 0.6 / 0.2.
 * - `grounding_eligible`: the item may back a customer reply — audience `customer_safe`, visibility
 *   `organization_internal` (a tool's private note never grounds a customer answer), active, confirmed, not
 *   expired.
 * - `trace_verified`: the item, at this exact revision and with these chunks, is a result of a recall trace of
 *   the same organization and connector.
 * - `reference_id`: `mi<item>-r<revision>-c<chunk ids joined by .>` (item, revision and chunk parts).
 */
import type { RecallTraceRecorded } from '../../events/memory/recall.events';
import { recallResultOf } from '../../events/memory/recall-results';
import type { MemoryChunk } from '../../events/memory/memory.events';
import type { MemoryItemFields } from '../../projections/memory.projection';
import { freshnessOf, type FreshnessCategory } from '../../queries/memory/freshness';
import type { RelevanceMethod } from '../../queries/memory/rank-fusion';
import type { ConflictEntry } from '../../grounding/evidence-conflicts';
import { publicLinksOnly } from '../../safety/link-text';
import { unsafeLinkReason } from './source-links';

/** The limitation a stale reference carries (freshness `stale`). */
export const STALE_LIMITATION = 'stale: not revised or re-dated for over a year';

export type AuthorityRole = 'authoritative' | 'supporting' | 'unverified';

export interface ReplyReference {
  reference_id: string;
  memory_item_id: number;
  memory_source_id: number;
  memory_chunk_ids: number[];
  title: string;
  source_uri: string;
  source_date: string;
  revision_date: string;
  visibility: string;
  audience: string;
  authority: { level: string; score: number; role: AuthorityRole };
  excerpt: string;
  relevance: { score: number; method: RelevanceMethod };
  freshness: { status: FreshnessCategory; effective_at: string; expires_at: string | null };
  limitations: string[];
  /** What the review reported as contradicting this reference (filled for cited references; grounding/). */
  conflicts: ConflictEntry[];
  trace_verified: boolean;
  grounding_eligible: boolean;
}

/** What evidence keeps of a reference beyond §2.6: the revision it was read at and its content hash. */
export interface EvidenceItem {
  reference: ReplyReference;
  revision: number;
  content_sha256: string;
  /**
   * What the models read: the text of the item's matched chunks (under their headings), in document order, at
   * most MAX_EVIDENCE_TEXT_CHARS. The reference's `excerpt` is only the highlight shown to clients. Both, and the
   * title, have non-public links withheld (invariant 5): the models never see one, so no claim can quote one.
   */
  text: string;
}

/** Bound of one evidence item's text given to the models (ten full chunks). */
export const MAX_EVIDENCE_TEXT_CHARS = 12_000;

/** `chunks`: the item's chunks at the ranked revision (none when it has moved on since: the excerpt stands in). */
function evidenceText(ranked: RankedEvidence, chunks: readonly MemoryChunk[]): string {
  const matched = new Set(ranked.chunk_ids);
  const text = chunks
    .filter((chunk) => matched.has(chunk.memory_chunk_id))
    .sort((a, b) => a.ordinal - b.ordinal)
    .map((chunk) => (chunk.heading ? `${chunk.heading}\n${chunk.text}` : chunk.text))
    .join('\n\n');
  const bounded = text.length > MAX_EVIDENCE_TEXT_CHARS ? text.slice(0, MAX_EVIDENCE_TEXT_CHARS) : text;
  return publicLinksOnly(bounded.trim() === '' ? ranked.excerpt : bounded);
}

export interface RankedEvidence {
  item: MemoryItemFields;
  chunk_ids: number[];
  score: number;
  excerpt: string;
  method: RelevanceMethod;
}

/** Each authority level's role and score (tool output counts as `reference`: supporting). */
export const AUTHORITY: Record<string, { score: number; role: AuthorityRole }> = {
  approved_source: { score: 1, role: 'authoritative' },
  reference: { score: 0.6, role: 'supporting' },
  unverified: { score: 0.2, role: 'unverified' },
};

export function referenceId(itemId: number, revision: number, chunkIds: readonly number[]): string {
  return `mi${itemId}-r${revision}-c${[...chunkIds].sort((a, b) => a - b).join('.')}`;
}

export function isGroundingEligible(item: MemoryItemFields, nowMs: number): boolean {
  return (
    item.audience === 'customer_safe' &&
    item.visibility === 'organization_internal' &&
    item.lifecycle_status === 'active' &&
    item.review_status === 'confirmed' &&
    freshnessOf(item, nowMs) !== 'expired'
  );
}

/** True when the trace (of this organization and connector) returned this item at this revision with these chunks. */
export function isTraceVerified(
  trace: RecallTraceRecorded['data'] | null,
  scope: { organization_id: number; connector_id: number },
  item: { memory_item_id: number; revision: number },
  chunkIds: readonly number[],
): boolean {
  if (!trace || trace.organization_id !== scope.organization_id || trace.connector_id !== scope.connector_id)
    return false;
  const result = recallResultOf(trace, item.memory_item_id);
  return (
    result !== undefined &&
    result.revision === item.revision &&
    chunkIds.every((id) => result.memory_chunk_ids.includes(id))
  );
}

export function toEvidence(
  ranked: RankedEvidence,
  chunks: readonly MemoryChunk[],
  trace: RecallTraceRecorded['data'] | null,
  scope: { organization_id: number; connector_id: number },
  nowMs: number,
): EvidenceItem {
  const { item } = ranked;
  const authority = AUTHORITY[item.authority_level] ?? AUTHORITY.unverified;
  const status = freshnessOf(item, nowMs);
  const limitations: string[] = [];
  if (status === 'stale') limitations.push(STALE_LIMITATION);
  if (item.audience !== 'customer_safe') limitations.push('internal: not for customers');
  // Invariant 5: a source URI that is not a public http(s) URL never leaves the service, not even as a reference.
  const withheld = item.source_uri ? unsafeLinkReason(item.source_uri) : null;
  if (withheld !== null) limitations.push(`source link withheld: ${withheld}`);
  return {
    revision: item.revision,
    content_sha256: item.content_sha256,
    text: evidenceText(ranked, chunks),
    reference: {
      reference_id: referenceId(item.memory_item_id, item.revision, ranked.chunk_ids),
      memory_item_id: item.memory_item_id,
      memory_source_id: item.memory_source_id,
      memory_chunk_ids: ranked.chunk_ids,
      title: publicLinksOnly(item.title),
      source_uri: withheld === null ? (item.source_uri ?? '') : '',
      source_date: item.source_date ?? item.revision_date,
      revision_date: item.revision_date,
      visibility: item.visibility,
      audience: item.audience,
      authority: { level: item.authority_level, ...authority },
      excerpt: publicLinksOnly(ranked.excerpt),
      relevance: { score: ranked.score, method: ranked.method },
      freshness: {
        status,
        effective_at: item.effective_at ?? item.source_date ?? item.revision_date,
        expires_at: item.expires_at,
      },
      limitations,
      conflicts: [],
      trace_verified: isTraceVerified(trace, scope, item, ranked.chunk_ids),
      grounding_eligible: isGroundingEligible(item, nowMs),
    },
  };
}

/** A reference that can back a strict reply on its own: authoritative, trace-verified and grounding-eligible. */
export function isAuthoritativeGround(reference: ReplyReference): boolean {
  return (
    reference.authority.role === 'authoritative' && reference.trace_verified && reference.grounding_eligible
  );
}
