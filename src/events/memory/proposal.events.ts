import type { DomainEvent } from '../domain-event';

/** How far the proposer says an approved item should be trusted (the roles of spec §2.6 `authority.role`). */
export type ProposedAuthorityRole = 'authoritative' | 'supporting' | 'unverified';

export type ProposedPolicy = {
  review_required: boolean;
  customer_safe_candidate: boolean;
  /** Absent: `authoritative` (an operator-approved source). */
  authority_role?: ProposedAuthorityRole;
};

/** Who may see an approved item and how far it is trusted (memory item fields). */
export type AppliedPolicy = {
  audience: 'customer_safe' | 'internal';
  authority_level: 'approved_source' | 'reference' | 'unverified';
};

/**
 * What a correction revises: the item and revision the reply cited, and the exact text of that revision it
 * replaces. Absent in proposals captured before Cairn recorded it (their approval is refused: nothing to re-base).
 */
export type CitedSpan = {
  memory_item_id: number;
  revision: number;
  /** The reference the reply cited (its id and excerpt exactly as returned) and the chunk the span is. */
  reference_id: string;
  reference_excerpt: string;
  memory_chunk_id: number | null;
  /** The cited chunk's text as it stands, once, in the item's content at `revision`; null when it does not. */
  span: string | null;
};

/** A customer-facing fact proposed for review. It affects nothing until an operator approves it. */
export type MemoryProposalCaptured = DomainEvent<
  'MemoryProposalCaptured',
  {
    proposal_id: number;
    organization_id: number;
    memory_source_id: number;
    /** Who proposed it: `connector:<id>` (HTTP), or `reply_feedback:<message id>` (corrections). */
    proposed_by: string;
    connector_id: number | null;
    client_key: string | null;
    title: string;
    content: string;
    proposed_type: string;
    source_uri: string | null;
    proposed_policy: ProposedPolicy;
    /** When set, approval revises this item instead of creating one. */
    target_memory_item_id: number | null;
    /** For a correction from reply feedback: the reply, message, feedback and review item it comes from. */
    correction?: ProposalCorrection | null;
    /** For a correction: the span of the cited revision that the proposed content replaces. */
    cited?: CitedSpan | null;
  }
>;

/** Where a correction proposal comes from (spec §4.7 rule 2: `corrected` feedback). */
export type ProposalCorrection = {
  reply_id: number;
  message_id: number;
  /** The conversation of the corrected reply (absent in older events): the suggested answer is its data too. */
  conversation_id?: number;
  feedback_id: number;
  response_review_id: number;
  /** Every memory item the corrected reply cited (the target is the first authoritative one). */
  cited_memory_item_ids: number[];
};

export type MemoryProposalApproved = DomainEvent<
  'MemoryProposalApproved',
  {
    proposal_id: number;
    organization_id: number;
    memory_item_id: number;
    approved_by: string;
    /**
     * Who decided what (absent in older events): the policy proposed, the one applied, and the operator's explicit
     * override (null: the proposal's). A correction keeps its item's audience and authority (`applied`).
     */
    policy?: { proposed: ProposedPolicy; applied: AppliedPolicy; override: AppliedPolicy['audience'] | null };
    /** For a correction: the item revision the span replacement applies to, and whether that is a re-base. */
    base_revision?: number;
    rebased?: boolean;
  }
>;

export type MemoryProposalRejected = DomainEvent<
  'MemoryProposalRejected',
  { proposal_id: number; organization_id: number; rejected_by: string; reason: string | null }
>;

export type MemoryProposalEvent = MemoryProposalCaptured | MemoryProposalApproved | MemoryProposalRejected;
