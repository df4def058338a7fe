/**
 * Sources per figure (ARCHITECTURE invariant 3): every quote a claim's figure may come from must be a source that
 * can ground a customer reply on its own. "One authoritative citation somewhere" is not enough: a figure is checked
 * against its own quotes (claim-figures.ts), so each of those quotes must be:
 * - of this organization, for this connector, at the revision retrieved (`trace_verified`);
 * - grounding-eligible: customer-safe, not a tool's private note, active, confirmed, not expired;
 * - authoritative (an approved source) when the connector's grounding policy is strict;
 * - current: not superseded by a newer source on the same topic among the evidence given (the same title once years
 *   are left out, a source date at least a day later, the same or a higher authority).
 * A quote of a tool result of this reply is live data of the organization's own systems and stands. Pure.
 */
import { tokenize } from '../infrastructure/search/sqlite/analyzer';

export interface QuoteSource {
  reference_id: string;
  title: string;
  source_date: string;
  authority: { role: string; score: number };
  trace_verified: boolean;
  grounding_eligible: boolean;
  freshness: { status: string };
}

export type SourceProblem = 'not_eligible' | 'not_authoritative' | 'superseded' | 'unknown';

/** A title's topic: its terms with years left out (`Price list 2024` and `Price list (2025)` share one). */
export function topicOf(title: string): string {
  return tokenize(title.replace(/(?<!\d)(?:19|20)\d{2}(?!\d)/g, ' '))
    .map((t) => t.term)
    .join(' ');
}

/** A newer source supersedes only when it is dated at least this much later (not a batch ingested together). */
const SUPERSEDING_GAP_MS = 24 * 60 * 60 * 1000;

/** Why `source` cannot back a figure, or null. `evidence` is everything the composer was given. */
export function quoteSourceProblem(
  source: QuoteSource | undefined,
  evidence: readonly QuoteSource[],
  strict: boolean,
): SourceProblem | null {
  if (source === undefined) return 'unknown';
  if (!source.trace_verified || !source.grounding_eligible || source.freshness.status === 'expired')
    return 'not_eligible';
  if (strict && source.authority.role !== 'authoritative') return 'not_authoritative';
  const topic = topicOf(source.title);
  if (topic === '') return null;
  const newer = evidence.some(
    (other) =>
      other.reference_id !== source.reference_id &&
      topicOf(other.title) === topic &&
      Date.parse(other.source_date) - Date.parse(source.source_date) >= SUPERSEDING_GAP_MS &&
      other.authority.score >= source.authority.score,
  );
  return newer ? 'superseded' : null;
}
