/**
 * What approving a proposal does, decided without I/O (the proposal decider and `proposals:show` both use it):
 * the policy the approved item gets, and for a correction the content of the revision it appends.
 */
import { SEALING_RULES } from '../../infrastructure/erasure/sealing-policy';
import { ConflictError, NotFoundError, ValidationFailedError } from '../../common/errors';
import type {
  AppliedPolicy,
  MemoryProposalCaptured,
  ProposedPolicy,
} from '../../events/memory/proposal.events';
import { replaceSpanOnce } from './correction-span';

/** How a proposal's sealed fields read once the keys they were sealed under are destroyed. */
const ERASED_PROPOSAL = SEALING_RULES.MemoryProposalCaptured.erased as {
  title: string;
  content: string;
  cited: null;
};

/** The operator's choices: re-base a correction on the item's current revision; override the audience. */
export type ApprovalOptions = { rebase: boolean; audience: AppliedPolicy['audience'] | null };

/** The correction's target as it stands now (null: no such item in the organization). */
export type CorrectionTarget = {
  organization_id: number;
  revision: number;
  archived: boolean;
  /** Erased (memory:erase): its content reads as erased, and it is never written again. */
  erased: boolean;
  content: string;
  audience: string;
  authority_level: string;
  /** A revision already applied this proposal (an interrupted approval run again). */
  applied: boolean;
};

export type ApprovalPlan = {
  policy: { proposed: ProposedPolicy; applied: AppliedPolicy; override: AppliedPolicy['audience'] | null };
  /** For a correction: the revision replaced and the whole new content (null once applied). */
  correction: { base_revision: number; rebased: boolean; old_text: string; content: string | null } | null;
};

/** The authority level of each proposed authority role (spec §2.6 roles, memory item levels). */
const AUTHORITY_LEVEL_OF: Record<
  NonNullable<ProposedPolicy['authority_role']>,
  AppliedPolicy['authority_level']
> = {
  authoritative: 'approved_source',
  supporting: 'reference',
  unverified: 'unverified',
};

/**
 * What a new item gets: the audience the operator chose explicitly, else the proposal's
 * (`customer_safe_candidate`); the authority the proposal names (`authority_role`), else approved_source.
 */
function newItemPolicy(proposed: ProposedPolicy, options: ApprovalOptions): ApprovalPlan['policy'] {
  const audience = options.audience ?? (proposed.customer_safe_candidate ? 'customer_safe' : 'internal');
  const authority_level = AUTHORITY_LEVEL_OF[proposed.authority_role ?? 'authoritative'];
  return { proposed, applied: { audience, authority_level }, override: options.audience };
}

export function planApproval(
  proposal: MemoryProposalCaptured['data'],
  target: CorrectionTarget | null,
  options: ApprovalOptions,
): ApprovalPlan {
  if (proposal.target_memory_item_id === null)
    return { policy: newItemPolicy(proposal.proposed_policy, options), correction: null };

  if (options.audience !== null) {
    throw new ValidationFailedError(
      'a correction revises its item and keeps its audience; --customer-safe and --internal apply to new items',
      [{ field: 'audience', message: 'not for a correction' }],
      'policy_override_not_applicable',
    );
  }
  if (target === null || target.organization_id !== proposal.organization_id) {
    throw new NotFoundError(`memory item ${proposal.target_memory_item_id} not found`);
  }
  const policy = {
    proposed: proposal.proposed_policy,
    applied: {
      audience: target.audience as AppliedPolicy['audience'],
      authority_level: target.authority_level as AppliedPolicy['authority_level'],
    },
    override: null,
  };
  const cited = proposal.cited ?? null;
  // Before the applied check: approving again a correction applied before its item's erasure is refused too.
  if (target.erased) {
    throw new ConflictError(
      'memory_item_erased',
      `memory item ${proposal.target_memory_item_id} was erased: this correction cannot be applied (reject it)`,
    );
  }
  // Its text went with an item the corrected reply cited: its sealed fields read as erased, nothing is left to apply.
  if (
    cited === ERASED_PROPOSAL.cited &&
    proposal.title === ERASED_PROPOSAL.title &&
    proposal.content === ERASED_PROPOSAL.content
  ) {
    throw new ConflictError(
      'memory_item_erased',
      'the text of this correction was erased with an item the corrected reply cited (reject it)',
    );
  }
  if (target.applied) {
    const base = cited?.revision ?? target.revision;
    return { policy, correction: { base_revision: base, rebased: false, old_text: '', content: null } };
  }
  if (target.archived) {
    throw new ConflictError(
      'memory_item_archived',
      `memory item ${proposal.target_memory_item_id} is archived: this correction cannot be applied (reject it)`,
    );
  }
  if (cited === null) {
    throw new ConflictError(
      'cited_span_unknown',
      'this correction was proposed before Cairn recorded the revision and text it corrects: revise the item ' +
        '(memory:revise) and reject the proposal',
    );
  }
  const notFound = new ConflictError(
    'cited_span_not_found',
    `the cited text is not in revision ${target.revision} of memory item ${cited.memory_item_id} exactly once: ` +
      'revise the item by hand (memory:revise) and reject the proposal',
    [{ message: 'cited span', span: cited.span }],
  );
  if (cited.span === null) throw notFound;
  const rebased = target.revision !== cited.revision;
  if (rebased && !options.rebase) {
    throw new ConflictError(
      'memory_item_revised_since',
      `memory item ${cited.memory_item_id} was revised since the reply cited revision ${cited.revision} ` +
        `(now ${target.revision}): approve with --rebase to replace the cited text in the current revision, ` +
        'or reject the proposal',
      [{ message: 'revisions', cited_revision: cited.revision, current_revision: target.revision }],
    );
  }
  const content = replaceSpanOnce(target.content, cited.span, proposal.content);
  if (content === null) throw notFound;
  return {
    policy,
    correction: { base_revision: target.revision, rebased, old_text: cited.span, content },
  };
}
