/**
 * Drafting and review of one reply, fail-closed (invariant 3, spec §4.6 rule 8): the composer drafts from the
 * evidence only; deterministic checks hold around the model calls; the independent reviewer sees only the
 * question, the answer, its claims and the cited evidence. Any doubt is a ReplyAbort (a typed system_status),
 * never a fallback answer.
 */
import type { ModelUsage } from '../../ai/openai-gateway';
import type { ComposeResult } from '../../ai/reply-composer';
import {
  isAbstention,
  type DraftInput,
  type DraftOutput,
  type ReviewInput,
  type ReviewOutput,
  type ThreadContext,
} from '../../ai/reply-model-contract';
import type { GroundingPolicy } from '../../events/connectors/connector.events';
import { assembleAnswer, claimText } from '../../grounding/answer-text';
import { resolveConflicts, type ConflictEntry, type ConflictParty } from '../../grounding/evidence-conflicts';
import { bindReview, type BoundVerdict } from '../../grounding/review-binding';
import { publicLinksOnly } from '../../safety/link-text';
import { canonicalDigest } from '../shared/canonical-digest';
import { checkClaims, quoteAbort, sourceAbort } from './claim-checks';
import { ReplyAbort } from './reply-abort';
import { AUTHORITY, isAuthoritativeGround, type EvidenceItem } from './reply-evidence';
import { modelAbort, type ReplyModels } from './reply-models';
import type { ReceiptReviewEntry } from './reply-receipt';
import type { ToolEvidence, ReplyToolbox } from './reply-toolbox';
import { ledgerEntry, MAX_REVIEW_ATTEMPTS } from './review-ledger';

/** The reviewer's evidence is bounded: a larger set is not reviewed at all (`semantic_review_evidence_overflow`). */
export const MAX_REVIEW_EVIDENCE_CHARS = 60_000;
/** Uncited evidence shown to the reviewer for conflict reports, at most this many characters (whole items). */
export const OTHER_EVIDENCE_CHARS = 30_000;

export interface Drafted {
  /** The draft as it leaves: claims with links withheld, `answer` assembled from them (the reply text). */
  draft: DraftOutput;
  review: ReviewOutput;
  /** The review's verdicts, bound one for one to the drafted claims. */
  verdicts: BoundVerdict[];
  /** The `conflicts` entries of each cited reference (only conflicts the cited evidence outranks: it stands). */
  conflicts: Map<string, ConflictEntry[]>;
  reviewInput: ReviewInput;
  reviewInputSha256: string;
  reviewerModel: string;
  /** The cited evidence, in evidence order. */
  cited: EvidenceItem[];
  /** Every successful tool run of the draft (cited or not), in call order. */
  toolEvidence: ToolEvidence[];
  usage: ModelUsage;
  /** Cairn's own claim checks (figures, wording) passed on the final draft. */
  claimChecksPassed: boolean;
  /** Every review of the run, in order: rejected drafts first, the approving review last. */
  ledger: ReceiptReviewEntry[];
}

function sumUsage(a: ModelUsage, b: ModelUsage): ModelUsage {
  return {
    model: a.model,
    input_tokens: a.input_tokens + b.input_tokens,
    output_tokens: a.output_tokens + b.output_tokens,
    total_tokens: a.total_tokens + b.total_tokens,
  };
}

type DraftArgs = {
  question: string;
  thread: ThreadContext;
  evidence: EvidenceItem[];
  policy: GroundingPolicy;
  /** Cancels the run (shutdown): a pending model call ends as `assistant_run_canceled`. */
  signal?: AbortSignal;
  /** The HTTP request the reply serves (`X-Request-Id`), for the model calls' log lines. */
  requestId?: string;
  /** Assistant tools this reply may use (none: the composer is offered no tools). */
  toolbox?: ReplyToolbox;
};

/**
 * Drafts and reviews until the review approves, at most MAX_REVIEW_ATTEMPTS times: a review that finds a claim
 * unsupported is recorded in the ledger as `rejected` and the composer drafts again without the claims it named
 * (`review_feedback`); any other failure ends the reply at once. The ledger holds every review, in order.
 */
export async function draftAndReview(models: ReplyModels, input: DraftArgs): Promise<Drafted> {
  const { composer, reviewer } = models;
  if (!composer || !reviewer) {
    throw new ReplyAbort(
      'assistant_runtime_unavailable',
      'no model configured (CAIRN_COMPOSER_MODEL and CAIRN_REVIEWER_MODEL)',
    );
  }
  const ledger: ReceiptReviewEntry[] = [];
  let toolEvidence: ToolEvidence[] = [];
  let feedback: DraftInput['review_feedback'];
  let usage: ModelUsage | null = null;
  for (let attempt = 1; ; attempt++) {
    const round = await draftOnce({ composer, reviewer }, input, toolEvidence, feedback);
    usage = usage ? sumUsage(usage, round.usage) : round.usage;
    toolEvidence = round.toolEvidence;
    const { review, verdicts, reviewInputSha256, reviewerModel } = round;
    const outcome = round.kind === 'approved' ? 'approved' : 'rejected';
    ledger.push(
      ledgerEntry({
        attempt,
        outcome,
        model: reviewerModel,
        review_input_sha256: reviewInputSha256,
        review,
        verdicts,
      }),
    );
    if (round.kind === 'approved') return { ...round, usage, ledger };
    const unsupported = verdicts.findIndex((verdict) => !verdict.supported);
    if (attempt >= MAX_REVIEW_ATTEMPTS) {
      throw new ReplyAbort(
        'semantic_review_failed',
        `review reports claim ${unsupported + 1} unsupported: ${review.reason}`,
      );
    }
    feedback = { unsupported_claims: verdicts.filter((v) => !v.supported).map((v) => v.text) };
  }
}

type Round =
  | ({ kind: 'approved' } & Omit<Drafted, 'ledger'>)
  | {
      kind: 'rejected';
      review: ReviewOutput;
      verdicts: BoundVerdict[];
      reviewInputSha256: string;
      reviewerModel: string;
      toolEvidence: ToolEvidence[];
      usage: ModelUsage;
    };

/** One draft and its review: approved, rejected for unsupported claims (bound verdicts), or a ReplyAbort. */
async function draftOnce(
  models: {
    composer: NonNullable<ReplyModels['composer']>;
    reviewer: NonNullable<ReplyModels['reviewer']>;
  },
  input: DraftArgs,
  priorTools: ToolEvidence[],
  feedback: DraftInput['review_feedback'],
): Promise<Round> {
  const { composer, reviewer } = models;
  const { question, evidence, policy, signal, requestId } = input;
  const byId = new Map(evidence.map((e) => [e.reference.reference_id, e]));

  const drafted = await compose(composer, input, priorTools, feedback);
  const tools = new Map(drafted.toolEvidence.map((t) => [t.reference_id, t]));
  if (isAbstention(drafted.output)) {
    throw new ReplyAbort('authoritative_evidence_insufficient', 'the composer abstained');
  }
  // The claims as they would leave: whitespace collapsed, non-public links withheld (invariant 5).
  const claims = drafted.output.claims.map((claim) => ({
    text: publicLinksOnly(claimText(claim.text)),
    reference_ids: [...new Set(claim.reference_ids)],
    quotes: claim.quotes.map((q) => ({ reference_id: q.reference_id, text: publicLinksOnly(q.text) })),
  }));
  const draft: DraftOutput = {
    ...drafted.output,
    claims,
    answer: assembleAnswer(claims, drafted.output.answer_mode),
  };
  const citedIds = new Set(claims.flatMap((claim) => claim.reference_ids));
  const unknown = [...citedIds].filter((id) => !byId.has(id) && !tools.has(id));
  if (unknown.length > 0 || claims.some((claim) => claim.reference_ids.length === 0 || claim.text === '')) {
    throw new ReplyAbort(
      'selected_references_invalid',
      unknown.length > 0 ? `cited ids not in the evidence: ${unknown.join(', ')}` : 'a claim cites nothing',
    );
  }
  const cited = evidence.filter((e) => citedIds.has(e.reference.reference_id));
  const citedTools = drafted.toolEvidence.filter((t) => citedIds.has(t.reference_id));
  if (policy === 'strict' && !cited.some((e) => isAuthoritativeGround(e.reference))) {
    throw new ReplyAbort(
      'authoritative_evidence_insufficient',
      'no cited reference is authoritative, trace-verified and grounding-eligible',
    );
  }
  const excerptOf = new Map<string, string>([
    ...cited.map(({ reference: r, text }): [string, string] => [r.reference_id, text]),
    // Cited tool output is reviewed like any evidence, as data.
    ...citedTools.map((t): [string, string] => [t.reference_id, JSON.stringify(t.output)]),
  ]);
  // Each claim states its own quotes, verbatim spans of what it cites; every later check compares it with them.
  const quoted = quoteAbort(claims, excerptOf);
  if (quoted !== null) throw quoted;
  // Every quote a figure may come from must be a source that can ground this reply on its own.
  const sourced = sourceAbort(claims, evidence, tools, policy === 'strict');
  if (sourced !== null) throw sourced;
  // Cairn's own support checks, whatever either model says (before the reviewer: a claim they refuse costs no call).
  const problem = checkClaims(claims, question, excerptOf);
  if (problem !== null) throw new ReplyAbort('semantic_review_failed', problem);

  const reviewInput: ReviewInput = {
    task: 'semantic_review',
    question,
    answer: draft.answer,
    claims,
    evidence: [...excerptOf].map(([reference_id, excerpt]) => ({ reference_id, excerpt })),
    other_evidence: otherEvidence(evidence, citedIds),
  };
  const evidenceChars = reviewInput.evidence.reduce((n, e) => n + e.excerpt.length, 0);
  if (evidenceChars > MAX_REVIEW_EVIDENCE_CHARS) {
    throw new ReplyAbort(
      'semantic_review_evidence_overflow',
      `${evidenceChars} characters of evidence exceed the review bound of ${MAX_REVIEW_EVIDENCE_CHARS}`,
    );
  }
  let reviewed: { output: ReviewOutput; usage: ModelUsage };
  try {
    reviewed = await reviewer.review(reviewInput, { signal, requestId });
  } catch (error) {
    throw modelAbort('reviewer', error);
  }
  const review = reviewed.output;
  const given = new Set([...excerptOf.keys(), ...reviewInput.other_evidence.map((e) => e.reference_id)]);
  const binding = bindReview(claims, review, given);
  if (!binding.bound)
    throw new ReplyAbort('semantic_review_failed', `review not bound to the draft: ${binding.reason}`);
  const reviewInputSha256 = canonicalDigest(reviewInput);
  const usage = sumUsage(drafted.usage, reviewed.usage);
  if (binding.verdicts.some((verdict) => !verdict.supported)) {
    const { verdicts } = binding;
    const reviewerModel = reviewed.usage.model;
    return {
      kind: 'rejected',
      review,
      verdicts,
      reviewInputSha256,
      reviewerModel,
      toolEvidence: drafted.toolEvidence,
      usage,
    };
  }
  const conflicts = resolveConflicts(binding.conflicts, citedIds, (id) => conflictParty(id, byId, tools));
  const contradicted = claims.findIndex((claim) =>
    claim.reference_ids.some((id) => conflicts.contradicted.has(id)),
  );
  if (contradicted >= 0) {
    throw new ReplyAbort(
      'authoritative_evidence_insufficient',
      `claim ${contradicted + 1} rests on evidence that equal or higher authority contradicts`,
    );
  }
  if (!review.sufficient || !review.answers_as_asked) {
    throw new ReplyAbort(
      'authoritative_evidence_insufficient',
      `review: ${review.sufficient ? 'does not answer as asked' : 'evidence insufficient'}: ${review.reason}`,
    );
  }
  return {
    kind: 'approved',
    claimChecksPassed: problem === null,
    draft,
    review,
    verdicts: binding.verdicts,
    conflicts: conflicts.entries,
    reviewInput,
    reviewInputSha256,
    reviewerModel: reviewed.usage.model,
    cited,
    toolEvidence: drafted.toolEvidence,
    usage,
  };
}

/** The uncited evidence, in ranking order, as far as OTHER_EVIDENCE_CHARS allows (for conflict reports only). */
function otherEvidence(
  evidence: readonly EvidenceItem[],
  citedIds: ReadonlySet<string>,
): ReviewInput['other_evidence'] {
  const other: ReviewInput['other_evidence'] = [];
  let used = 0;
  for (const { reference, text } of evidence) {
    if (citedIds.has(reference.reference_id)) continue;
    if (used + text.length > OTHER_EVIDENCE_CHARS) break;
    used += text.length;
    other.push({ reference_id: reference.reference_id, excerpt: text });
  }
  return other;
}

function conflictParty(
  id: string,
  byId: ReadonlyMap<string, EvidenceItem>,
  tools: ReadonlyMap<string, ToolEvidence>,
): ConflictParty | undefined {
  const item = byId.get(id);
  if (item) {
    const { memory_item_id, title, authority } = item.reference;
    return { memory_item_id, title, authority_score: authority.score, authority_role: authority.role };
  }
  const tool = tools.get(id);
  // Tool output is live data of the organization's own systems: supporting, below approved knowledge.
  const { score, role } = AUTHORITY.reference;
  if (tool)
    return { memory_item_id: null, title: tool.tool_key, authority_score: score, authority_role: role };
  return undefined;
}

/**
 * Drafting, with the tool loop: while the composer asks for tool calls (within the reply's budget), they are run
 * and it drafts again with their results in `tool_results`. Usage is summed over every call.
 */
async function compose(
  composer: NonNullable<ReplyModels['composer']>,
  input: DraftArgs,
  priorTools: ToolEvidence[],
  feedback: DraftInput['review_feedback'],
): Promise<{ output: DraftOutput; usage: ModelUsage; toolEvidence: ToolEvidence[] }> {
  const { question, thread, evidence, signal, requestId, toolbox } = input;
  // A second draft sees the tool results of the first (no tool runs again) and what the review rejected.
  const toolEvidence: ToolEvidence[] = [...priorTools];
  let usage: ModelUsage | null = null;
  for (;;) {
    let result: ComposeResult;
    try {
      result = await composer.compose(
        {
          task: 'draft_reply',
          question,
          thread,
          evidence: evidence.map(({ reference: r, text }) => ({
            reference_id: r.reference_id,
            title: r.title,
            excerpt: text,
            authority: { level: r.authority.level, role: r.authority.role },
            freshness: r.freshness,
            source_date: r.source_date,
          })),
          tool_results: toolEvidence.map((t) => ({
            reference_id: t.reference_id,
            tool_key: t.tool_key,
            output: t.output,
          })),
          ...(feedback ? { review_feedback: feedback } : {}),
        },
        { signal, requestId },
        toolbox?.offered ?? [],
      );
    } catch (error) {
      throw modelAbort('composer', error);
    }
    usage = usage ? sumUsage(usage, result.usage) : result.usage;
    if (result.kind === 'draft') return { output: result.output, usage, toolEvidence };
    if (!toolbox)
      throw new ReplyAbort('assistant_answer_incomplete', 'the composer called a tool it was not offered');
    if (toolEvidence.length + result.calls.length > toolbox.maxCalls) {
      throw new ReplyAbort(
        'assistant_tool_limit_reached',
        `the composer asked for more than ${toolbox.maxCalls} tool calls in one reply`,
      );
    }
    for (const call of result.calls) toolEvidence.push(await toolbox.run(call, signal));
  }
}
