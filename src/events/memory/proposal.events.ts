import type { DomainEvent } from '../domain-event';

export type ProposedPolicy = { review_required: boolean; customer_safe_candidate: boolean };

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
  }
>;

/** Where a correction proposal comes from (spec §4.7 rule 2: `corrected` feedback). */
export type ProposalCorrection = {
  reply_id: number;
  message_id: number;
  feedback_id: number;
  response_review_id: number;
  /** Every memory item the corrected reply cited (the target is the first authoritative one). */
  cited_memory_item_ids: number[];
};

export type MemoryProposalApproved = DomainEvent<
  'MemoryProposalApproved',
  { proposal_id: number; organization_id: number; memory_item_id: number; approved_by: string }
>;

export type MemoryProposalRejected = DomainEvent<
  'MemoryProposalRejected',
  { proposal_id: number; organization_id: number; rejected_by: string; reason: string | null }
>;

export type MemoryProposalEvent = MemoryProposalCaptured | MemoryProposalApproved | MemoryProposalRejected;
