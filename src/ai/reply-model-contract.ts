/**
 * The model contract (ARCHITECTURE.md "Model contract"): the inputs Cairn sends, the strict JSON schemas the
 * model must answer in, and the validators that hold every answer to those schemas. The JSON schemas are the
 * single source of truth: the validators interpret them, so the two cannot drift apart.
 */
import { ModelCallError, type ModelUsage } from './openai-gateway';

export type { ModelUsage };

export const DRAFT_SCHEMA_NAME = 'cairn_reply_draft';
export const REVIEW_SCHEMA_NAME = 'cairn_semantic_review';

/** Spec §4.6 rule 5 / §8: at most ten recent history items reach the model. */
export const MAX_HISTORY_ITEMS = 10;
export const HISTORY_ROLES = ['customer', 'organization', 'assistant', 'agent', 'other'] as const;
export type HistoryRole = (typeof HISTORY_ROLES)[number];

/** Bounds of what the model may write (checked by the validators, and stated in the schemas). */
export const OUTPUT_BOUNDS = {
  answerChars: 4000,
  claims: 20,
  claimChars: 1000,
  referencesPerClaim: 10,
  quotesPerClaim: 10,
  quoteChars: 1000,
  referenceIdChars: 200,
  notes: 10,
  noteChars: 500,
  reasonChars: 1000,
  conflicts: 20,
} as const;

export const ANSWER_MODES = ['facts', 'steps', 'clarification', 'none', 'abstain'] as const;
export type AnswerMode = (typeof ANSWER_MODES)[number];
export const ANSWER_INTENTS = ['answer_business_question', 'ask_clarifying_question', 'decline'] as const;
export type AnswerIntent = (typeof ANSWER_INTENTS)[number];

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

// ---------------------------------------------------------------------------------------------- draft input

export interface DraftEvidence {
  reference_id: string;
  title: string;
  excerpt: string;
  /** As on the reference (spec §2.6): level e.g. `approved_source`, role e.g. `authoritative`. */
  authority: { level: string; role: string };
  /** As on the reference (spec §2.6): status e.g. `current`; ISO 8601 UTC timestamps. */
  freshness: { status: string; effective_at: string; expires_at: string | null };
  /** ISO 8601 UTC timestamp. */
  source_date: string;
}

/** Structured, untrusted continuity context (spec §4.6 rule 5). `to` is the recipient, when known. */
export interface ThreadContext {
  subject: string | null;
  from: string | null;
  to: string | null;
  channel: string;
  sent_at: string | null;
  history: Array<{ role: HistoryRole; text: string }>;
}

/** Customer-safe projected output of a read-only assistant tool; untrusted data. */
export interface ToolResult {
  /** What a claim cites to rely on this result. */
  reference_id: string;
  tool_key: string;
  output: JsonValue;
}

export interface DraftInput {
  task: 'draft_reply';
  /** The latest external message. */
  question: string;
  thread: ThreadContext;
  evidence: DraftEvidence[];
  tool_results: ToolResult[];
  /**
   * Present on a second draft only: the claims of the previous draft the independent reviewer found unsupported
   * (the draft is asked again without them). Untrusted data, like the thread.
   */
  review_feedback?: { unsupported_claims: string[] };
}

// --------------------------------------------------------------------------------------------- draft output

/** An exact span of a cited reference's text that a claim states (verified verbatim: grounding/claim-quotes.ts). */
export interface ClaimQuote {
  reference_id: string;
  text: string;
}

export interface DraftClaim {
  text: string;
  reference_ids: string[];
  /** The spans of the cited evidence this claim states; every later check compares the claim with these. */
  quotes: ClaimQuote[];
}

export interface DraftOutput {
  answer: string;
  claims: DraftClaim[];
  answer_mode: AnswerMode;
  answer_intent: AnswerIntent;
  inferences: string[];
  uncertainties: string[];
  gaps: string[];
  abstain: boolean;
}

// ------------------------------------------------------------------------------------------------- review

/**
 * The reviewer sees only this: no drafting prompt, no thread. `evidence` is what the claims cite (cited tool output
 * included, as data); `other_evidence` is the rest of what the composer was given, only so that the reviewer can
 * report cited evidence that other evidence contradicts.
 */
export interface ReviewInput {
  task: 'semantic_review';
  question: string;
  answer: string;
  claims: DraftClaim[];
  evidence: Array<{ reference_id: string; excerpt: string }>;
  other_evidence: Array<{ reference_id: string; excerpt: string }>;
}

export interface ReviewedClaim {
  text: string;
  supported: boolean;
  reference_ids: string[];
}

/** Cited evidence (`reference_id`) that other evidence given to the reviewer contradicts. */
export interface ReviewConflict {
  reference_id: string;
  conflicting_reference_id: string;
  description: string;
}

export interface ReviewOutput {
  sufficient: boolean;
  answers_as_asked: boolean;
  claims: ReviewedClaim[];
  conflicts: ReviewConflict[];
  reason: string;
}

// -------------------------------------------------------------------------------------------- JSON schemas

/** The subset of JSON schema that strict structured outputs accept and that we use. */
export type SchemaNode =
  | {
      type: 'object';
      description?: string;
      properties: Record<string, SchemaNode>;
      required: string[];
      additionalProperties: false;
    }
  | { type: 'array'; description?: string; items: SchemaNode; maxItems: number }
  | { type: 'string'; description?: string; maxLength: number }
  | { type: 'string'; description?: string; enum: string[] }
  | { type: 'boolean'; description?: string };
type ObjectNode = Extract<SchemaNode, { type: 'object' }>;

const described = (description: string | undefined): { description?: string } =>
  description === undefined ? {} : { description };
const object = (properties: Record<string, SchemaNode>, description?: string): ObjectNode => ({
  type: 'object',
  ...described(description),
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
});
const text = (maxLength: number, description?: string): SchemaNode => ({
  type: 'string',
  ...described(description),
  maxLength,
});
const list = (items: SchemaNode, maxItems: number, description?: string): SchemaNode => ({
  type: 'array',
  ...described(description),
  items,
  maxItems,
});
const flag = (description: string): SchemaNode => ({ type: 'boolean', description });
const B = OUTPUT_BOUNDS;
const referenceIds = list(
  text(B.referenceIdChars),
  B.referencesPerClaim,
  'reference_id values from the evidence',
);

export const DRAFT_OUTPUT_SCHEMA: ObjectNode = object({
  answer: text(B.answerChars, 'the reply text; empty when abstaining'),
  claims: list(
    object({
      text: text(B.claimChars),
      reference_ids: referenceIds,
      quotes: list(
        object({
          reference_id: text(B.referenceIdChars, "one of this claim's reference_ids"),
          text: text(B.quoteChars, 'copied character for character from that evidence item'),
        }),
        B.quotesPerClaim,
        'the exact spans of the cited evidence this claim states, at least one',
      ),
    }),
    B.claims,
    'every factual statement of the answer with the evidence that supports it',
  ),
  answer_mode: { type: 'string', enum: [...ANSWER_MODES] },
  answer_intent: { type: 'string', enum: [...ANSWER_INTENTS] },
  inferences: list(text(B.noteChars), B.notes),
  uncertainties: list(text(B.noteChars), B.notes),
  gaps: list(text(B.noteChars), B.notes, 'what the evidence does not say'),
  abstain: flag('true when the evidence is insufficient to answer'),
});

export const REVIEW_OUTPUT_SCHEMA: ObjectNode = object({
  sufficient: flag('true only if the evidence fully answers the question'),
  answers_as_asked: flag('true only if the answer addresses the question actually asked'),
  claims: list(
    object({
      text: text(B.claimChars),
      supported: flag('stated by the cited excerpts'),
      reference_ids: referenceIds,
    }),
    B.claims,
    'every drafted claim, in the drafted order and with its exact text',
  ),
  conflicts: list(
    object({
      reference_id: text(B.referenceIdChars, 'a cited reference_id'),
      conflicting_reference_id: text(B.referenceIdChars, 'a reference_id of evidence or other_evidence'),
      description: text(B.noteChars),
    }),
    B.conflicts,
    'cited evidence that other evidence contradicts',
  ),
  reason: text(B.reasonChars),
});

// ---------------------------------------------------------------------------------------------- validators

/** The first violation of `node` by `value`, as `path: problem`; null when it conforms. */
export function schemaViolation(node: SchemaNode, value: unknown, path = '$'): string | null {
  switch (node.type) {
    case 'boolean':
      return typeof value === 'boolean' ? null : `${path}: expected a boolean`;
    case 'string':
      if (typeof value !== 'string') return `${path}: expected a string`;
      if ('enum' in node)
        return node.enum.includes(value) ? null : `${path}: not one of ${node.enum.join('|')}`;
      return value.length <= node.maxLength ? null : `${path}: longer than ${node.maxLength}`;
    case 'array': {
      if (!Array.isArray(value)) return `${path}: expected an array`;
      if (value.length > node.maxItems) return `${path}: more than ${node.maxItems} items`;
      for (const [i, item] of value.entries()) {
        const problem = schemaViolation(node.items, item, `${path}[${i}]`);
        if (problem !== null) return problem;
      }
      return null;
    }
    case 'object': {
      if (typeof value !== 'object' || value === null || Array.isArray(value))
        return `${path}: expected an object`;
      const record = value as Record<string, unknown>;
      const extra = Object.keys(record).find((key) => !Object.hasOwn(node.properties, key));
      if (extra !== undefined) return `${path}.${extra}: not allowed`;
      for (const key of node.required) {
        if (!Object.hasOwn(record, key)) return `${path}.${key}: missing`;
        const problem = schemaViolation(node.properties[key], record[key], `${path}.${key}`);
        if (problem !== null) return problem;
      }
      return null;
    }
  }
}

function conform<T>(schemaName: string, node: SchemaNode, value: unknown): T {
  const problem = schemaViolation(node, value);
  if (problem !== null)
    throw new ModelCallError('malformed', `${schemaName} answer does not match the schema (${problem})`);
  return value as T;
}

/**
 * Whether a composer answer abstains in any form: `abstain: true`, an `abstain` or `none` answer mode, a `decline`
 * intent, no claims or an empty answer. Read before the schema: an abstention is honoured even when the rest of
 * the answer is off-schema (nothing of it is used).
 */
export function isAbstention(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  return (
    v.abstain === true ||
    v.answer_mode === 'abstain' ||
    v.answer_mode === 'none' ||
    v.answer_intent === 'decline' ||
    (Array.isArray(v.claims) && v.claims.length === 0) ||
    (typeof v.answer === 'string' && v.answer.trim() === '')
  );
}

/** The abstention Cairn records for any abstaining answer: only its gaps are kept, when well-formed. */
function abstained(value: unknown): DraftOutput {
  const gaps = (value as { gaps?: unknown }).gaps;
  const kept =
    Array.isArray(gaps) && gaps.every((g) => typeof g === 'string' && g.length <= B.noteChars)
      ? (gaps as string[]).slice(0, B.notes)
      : [];
  return {
    answer: '',
    claims: [],
    answer_mode: 'abstain',
    answer_intent: 'decline',
    inferences: [],
    uncertainties: [],
    gaps: kept,
    abstain: true,
  };
}

/** The parsed model answer as a DraftOutput (an abstention in any form as one), or ModelCallError('malformed'). */
export const parseDraftOutput = (value: unknown): DraftOutput =>
  isAbstention(value)
    ? abstained(value)
    : conform<DraftOutput>(DRAFT_SCHEMA_NAME, DRAFT_OUTPUT_SCHEMA, value);

/** The parsed model answer as a ReviewOutput, or ModelCallError('malformed'). */
export const parseReviewOutput = (value: unknown): ReviewOutput =>
  conform<ReviewOutput>(REVIEW_SCHEMA_NAME, REVIEW_OUTPUT_SCHEMA, value);

/**
 * Cited reference ids that are not among the evidence given to the model (deduplicated, in order). Not a
 * schema violation: the reply policy decides (e.g. `selected_references_invalid`).
 */
export function unknownReferenceIds(
  claims: ReadonlyArray<{ reference_ids: string[] }>,
  evidence: ReadonlyArray<{ reference_id: string }>,
): string[] {
  const known = new Set(evidence.map((item) => item.reference_id));
  return [...new Set(claims.flatMap((claim) => claim.reference_ids))].filter((id) => !known.has(id));
}

// ------------------------------------------------------------------------------------- input projections

/**
 * Spec §4.6 rule 5, last line of defence: the five roles pass, anything else (`system`, `tool`, …) is `other`.
 * Callers normalize aliases beforehand (src/commands/replies/thread-context.ts `normalizeRole`); this guard is
 * idempotent on their output.
 */
export function guardHistoryRole(role: string): HistoryRole {
  return (HISTORY_ROLES as readonly string[]).includes(role) ? (role as HistoryRole) : 'other';
}

/**
 * Exactly the contract fields of a draft input, in contract order, history cut to the latest MAX_HISTORY_ITEMS
 * with roles guarded (a conforming input comes out unchanged). Nothing else reaches the model.
 */
export function draftPayload(input: DraftInput): DraftInput {
  const t = input.thread;
  return {
    task: 'draft_reply',
    question: input.question,
    thread: {
      subject: t.subject,
      from: t.from,
      to: t.to,
      channel: t.channel,
      sent_at: t.sent_at,
      history: t.history
        .slice(-MAX_HISTORY_ITEMS)
        .map((item) => ({ role: guardHistoryRole(item.role), text: item.text })),
    },
    evidence: input.evidence.map((e) => ({
      reference_id: e.reference_id,
      title: e.title,
      excerpt: e.excerpt,
      authority: { level: e.authority.level, role: e.authority.role },
      freshness: {
        status: e.freshness.status,
        effective_at: e.freshness.effective_at,
        expires_at: e.freshness.expires_at,
      },
      source_date: e.source_date,
    })),
    tool_results: input.tool_results.map((r) => ({
      reference_id: r.reference_id,
      tool_key: r.tool_key,
      output: r.output,
    })),
    ...(input.review_feedback
      ? { review_feedback: { unsupported_claims: [...input.review_feedback.unsupported_claims] } }
      : {}),
  };
}

/** Exactly the contract fields of a review input, in contract order: never a thread, prompt or tool output. */
export function reviewPayload(input: ReviewInput): ReviewInput {
  return {
    task: 'semantic_review',
    question: input.question,
    answer: input.answer,
    claims: input.claims.map((c) => ({
      text: c.text,
      reference_ids: [...c.reference_ids],
      quotes: c.quotes.map((q) => ({ reference_id: q.reference_id, text: q.text })),
    })),
    evidence: input.evidence.map((e) => ({ reference_id: e.reference_id, excerpt: e.excerpt })),
    other_evidence: input.other_evidence.map((e) => ({ reference_id: e.reference_id, excerpt: e.excerpt })),
  };
}
