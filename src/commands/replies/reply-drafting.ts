/**
 * Drafting and review of one reply, fail-closed (invariant 3, spec §4.6 rule 8): the composer drafts from the
 * evidence only; deterministic checks hold around the model calls; the independent reviewer sees only the
 * question, the answer, its claims and the cited evidence. Any doubt is a ReplyAbort (a typed system_status),
 * never a fallback answer.
 */
import type { ModelUsage } from '../../ai/openai-gateway';
import type { ComposeResult } from '../../ai/reply-composer';
import type { DraftOutput, ReviewInput, ReviewOutput, ThreadContext } from '../../ai/reply-model-contract';
import type { GroundingPolicy } from '../../events/connectors/connector.events';
import { canonicalDigest } from '../shared/canonical-digest';
import { ReplyAbort } from './reply-abort';
import { isAuthoritativeGround, type EvidenceItem } from './reply-evidence';
import { modelAbort, type ReplyModels } from './reply-models';
import type { ToolEvidence, ReplyToolbox } from './reply-toolbox';

/** The reviewer's evidence is bounded: a larger set is not reviewed at all (`semantic_review_evidence_overflow`). */
export const MAX_REVIEW_EVIDENCE_CHARS = 60_000;

export interface Drafted {
  draft: DraftOutput;
  review: ReviewOutput;
  reviewInput: ReviewInput;
  reviewInputSha256: string;
  reviewerModel: string;
  /** The cited evidence, in evidence order. */
  cited: EvidenceItem[];
  /** Every successful tool run of the draft (cited or not), in call order. */
  toolEvidence: ToolEvidence[];
  usage: ModelUsage;
}

function sumUsage(a: ModelUsage, b: ModelUsage): ModelUsage {
  return {
    model: a.model,
    input_tokens: a.input_tokens + b.input_tokens,
    output_tokens: a.output_tokens + b.output_tokens,
    total_tokens: a.total_tokens + b.total_tokens,
  };
}

export async function draftAndReview(
  models: ReplyModels,
  input: {
    question: string;
    thread: ThreadContext;
    evidence: EvidenceItem[];
    policy: GroundingPolicy;
    /** Cancels the run (shutdown): a pending model call ends as `assistant_run_canceled`. */
    signal?: AbortSignal;
    /** Assistant tools this reply may use (none: the composer is offered no tools). */
    toolbox?: ReplyToolbox;
  },
): Promise<Drafted> {
  const { composer, reviewer } = models;
  if (!composer || !reviewer) {
    throw new ReplyAbort(
      'assistant_runtime_unavailable',
      'no model configured (CAIRN_COMPOSER_MODEL and CAIRN_REVIEWER_MODEL)',
    );
  }
  const { question, evidence, policy, signal } = input;
  const byId = new Map(evidence.map((e) => [e.reference.reference_id, e]));

  const drafted = await compose(composer, input);
  const tools = new Map(drafted.toolEvidence.map((t) => [t.reference_id, t]));
  const draft = drafted.output;
  if (draft.abstain || draft.answer.trim() === '' || draft.claims.length === 0) {
    throw new ReplyAbort('authoritative_evidence_insufficient', 'the composer abstained');
  }
  const citedIds = new Set(draft.claims.flatMap((claim) => claim.reference_ids));
  const unknown = [...citedIds].filter((id) => !byId.has(id) && !tools.has(id));
  if (unknown.length > 0 || draft.claims.some((claim) => claim.reference_ids.length === 0)) {
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

  const reviewInput: ReviewInput = {
    task: 'semantic_review',
    question,
    answer: draft.answer,
    claims: draft.claims,
    evidence: [
      ...cited.map(({ reference: r, text }) => ({ reference_id: r.reference_id, excerpt: text })),
      // Cited tool output is reviewed like any evidence, as data.
      ...citedTools.map((t) => ({ reference_id: t.reference_id, excerpt: JSON.stringify(t.output) })),
    ],
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
    reviewed = await reviewer.review(reviewInput, signal);
  } catch (error) {
    throw modelAbort('reviewer', error);
  }
  const review = reviewed.output;
  const unsupported =
    review.claims.length !== draft.claims.length || review.claims.some((claim) => !claim.supported);
  if (unsupported) {
    throw new ReplyAbort('semantic_review_failed', `review reports unsupported claims: ${review.reason}`);
  }
  if (!review.sufficient || !review.answers_as_asked) {
    throw new ReplyAbort(
      'authoritative_evidence_insufficient',
      `review: ${review.sufficient ? 'does not answer as asked' : 'evidence insufficient'}: ${review.reason}`,
    );
  }
  return {
    draft,
    review,
    reviewInput,
    reviewInputSha256: canonicalDigest(reviewInput),
    reviewerModel: reviewed.usage.model,
    cited,
    toolEvidence: drafted.toolEvidence,
    usage: sumUsage(drafted.usage, reviewed.usage),
  };
}

/**
 * Drafting, with the tool loop: while the composer asks for tool calls (within the reply's budget), they are run
 * and it drafts again with their results in `tool_results`. Usage is summed over every call.
 */
async function compose(
  composer: NonNullable<ReplyModels['composer']>,
  input: Parameters<typeof draftAndReview>[1],
): Promise<{ output: DraftOutput; usage: ModelUsage; toolEvidence: ToolEvidence[] }> {
  const { question, thread, evidence, signal, toolbox } = input;
  const toolEvidence: ToolEvidence[] = [];
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
        },
        signal,
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
