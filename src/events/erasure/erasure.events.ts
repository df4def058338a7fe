import type { DomainEvent } from '../domain-event';

export type ErasedKind = 'memory_item' | 'conversation' | 'organization';

/**
 * A subject's data keys were destroyed (crypto-shredding, docs/audit.md "Erasure"): every sealed field of its events
 * is unreadable from now on. Names what was erased, by whom and why — never the content. One per subject, in the
 * stream `erasure-<subject>`.
 */
export type SubjectErased = DomainEvent<
  'SubjectErased',
  {
    /** The key subject: `memory-item-<id>`, `conversation-<id>` or `organization-<id>`. */
    subject: string;
    kind: ErasedKind;
    id: number;
    organization_id: number;
    /** The actor who asked (`operator:<name>` or `connector:<id>`). */
    erased_by: string;
    reason: string | null;
    /**
     * Subjects erased with it (absent in older events): for a memory item, the proposal whose approval created
     * it (`proposal-<id>`).
     */
    linked_subjects?: string[];
    keys_destroyed: number;
    erased_at: string;
  }
>;
