import { ANSWER_INTENTS, ANSWER_MODES } from '../../ai/reply-model-contract';
import { SYSTEM_STATUS_CODES } from '../../commands/replies/outcome-policy';
import { FEEDBACK_OUTCOMES, FEEDBACK_RATINGS } from '../../events/replies/feedback.events';
import {
  arrayOf,
  closed,
  integer,
  oneOfStrings,
  ref,
  str,
  timestamp,
  type JsonSchema,
  type Schemas,
} from './schema-types';

/** The schema or null (an enum gains null too, as JSON Schema requires). */
const nullable = (schema: JsonSchema): JsonSchema => ({
  ...schema,
  type: [schema.type, 'null'],
  ...(Array.isArray(schema.enum) ? { enum: [...(schema.enum as unknown[]), null] } : {}),
});
const anyJson: JsonSchema = { description: 'any JSON value' };
const number: JsonSchema = { type: 'number' };

const Conflict = closed(
  {
    reference_id: str('the evidence that contradicts this reference'),
    memory_item_id: nullable(integer()),
    title: str(),
    authority_role: str(undefined, 'supporting'),
    description: str(),
    resolution: oneOfStrings(
      ['outranked', 'contradicted'],
      '`outranked`: lower authority, does not override this reference; `contradicted`: it does',
    ),
  },
  [],
  'What the review reported as contradicting a reference.',
);

const Reference = closed(
  {
    reference_id: str('memory item, revision and chunk parts', 'mi12-r2-c31.32'),
    memory_item_id: integer(),
    memory_source_id: integer(),
    memory_chunk_ids: arrayOf(integer()),
    title: str(),
    source_uri: nullable(str('a public http(s) URL; null when withheld or unknown')),
    source_date: nullable(timestamp()),
    revision_date: timestamp(),
    visibility: str(undefined, 'organization_internal'),
    audience: str(undefined, 'customer_safe'),
    authority: closed({
      level: str(undefined, 'approved_source'),
      score: number,
      role: oneOfStrings(['authoritative', 'supporting', 'unverified']),
    }),
    excerpt: str(),
    relevance: closed({ score: number, method: oneOfStrings(['lexical', 'semantic', 'hybrid']) }),
    freshness: closed({
      status: oneOfStrings(['current', 'stale', 'expired']),
      effective_at: nullable(timestamp()),
      expires_at: nullable(timestamp()),
    }),
    limitations: arrayOf(anyJson),
    conflicts: arrayOf(ref('ReferenceConflict')),
    trace_verified: { type: 'boolean' },
    grounding_eligible: { type: 'boolean' },
  },
  [],
  'One piece of evidence a reply cites: the item revision, its authority, relevance and freshness.',
);

const Grounding = closed(
  {
    status: str('`grounded` on a success under strict policy', 'grounded'),
    reason: nullable(str()),
    trace_id: integer(),
    evidence_as_of: timestamp(),
    corpus_revision: str(),
    index_revision: str(),
    authoritative_reference_count: integer(),
    supporting_reference_count: integer(),
    inferences: arrayOf(anyJson),
    uncertainties: arrayOf(anyJson),
    gaps: arrayOf(anyJson),
    idempotent_replay: { type: 'boolean', description: 'true when this is a replay of a completed request' },
    generated_at: timestamp(),
    semantic_sufficiency: closed({
      sufficient: { type: 'boolean' },
      answers_as_asked: { type: 'boolean' },
      all_claims_supported: { type: 'boolean' },
      reviewer_model: str(),
      review_input_sha256: str(),
      reason: nullable(str()),
    }),
  },
  [],
  'How the reply is grounded: policy status, evidence counts, revisions and the reviewer’s verdict.',
);

const ReplySuccess = closed(
  {
    ok: { const: true },
    reply_id: integer(),
    conversation_id: integer(),
    message_id: integer('send feedback against this id'),
    agent_run_id: integer(),
    external_thread_id: str('echo of the request'),
    external_message_id: nullable(str('echo of the request')),
    suggested_response: closed({ text: str() }),
    references: arrayOf(ref('ReplyReference')),
    source_links: arrayOf(closed({ label: str(), url: { type: 'string', format: 'uri' } })),
    source_count: integer('the number of source_links'),
    contract_version: str(undefined, '2026-07-17.2'),
    memory_recall_trace_id: integer(),
    answer_mode: oneOfStrings(ANSWER_MODES),
    answer_intent: oneOfStrings(ANSWER_INTENTS),
    generated_by_ai: { const: true },
    grounding: ref('Grounding'),
    usage: closed({
      model: str(),
      input_tokens: integer(),
      output_tokens: integer(),
      total_tokens: integer(),
    }),
  },
  [],
  'A reviewed, grounded suggested reply.',
);

const ReplySystemStatus = closed(
  {
    ok: { const: false },
    outcome: { const: 'system_status' },
    answer: { type: 'null' },
    assistant_message: { type: 'null' },
    reply_id: integer('absent in the authoritative_evidence_insufficient form'),
    request_status: { const: 'failed' },
    message_id: { type: 'null' },
    feedback_token: { type: 'null' },
    system_status: closed(
      {
        code: str(
          `operational state, never speech. Known codes: ${SYSTEM_STATUS_CODES.join(', ')}; ` +
            'new codes may be added (treat unknown ones as non-answer state)',
          'ai_temporarily_unavailable',
        ),
        retryable: { type: 'boolean' },
        retry_after_ms: { type: 'integer', minimum: 0 },
        trace_id: nullable(str()),
        idempotent_replay: {
          const: true,
          description:
            'present when this is the stored non-retryable outcome of an earlier request, replayed',
        },
        message: str(
          'present with idempotent_replay: how to get a fresh reply (a new external_message_id / idempotency_key)',
        ),
      },
      ['idempotent_replay', 'message'],
    ),
  },
  ['reply_id'],
  'No answer: operational state, never speech. Retry the same message with the same idempotency fields after retry_after_ms.',
);

/** Schemas of spec §2.5–2.9. */
export const replySchemas: Schemas = {
  ReferenceConflict: Conflict,
  ReplyReference: Reference,
  Grounding,
  ReplySuccess,
  ReplySystemStatus,
  ReplyResult: {
    description:
      'HTTP 200 in both forms: branch on `ok` (true: a suggested reply) / `outcome` (`system_status`: no answer).',
    oneOf: [ref('ReplySuccess'), ref('ReplySystemStatus')],
  },
  FeedbackResponse: closed(
    {
      ok: { const: true },
      outcome: nullable(oneOfStrings(FEEDBACK_OUTCOMES, 'null when rating `none` cleared the outcome')),
      rating: oneOfStrings(FEEDBACK_RATINGS),
      feedback_id: integer(),
      response_review_id: integer(),
      proposal_id: integer('only for `corrected`: the pending memory proposal'),
      idempotent_replay: { type: 'boolean' },
    },
    ['proposal_id'],
    'The recorded feedback (or its replay for the same retry identity).',
  ),
};
