import type { CitedSpan, ProposalCorrection, ProposedPolicy } from '../../events/memory/proposal.events';
import type { ConnectorPrincipal } from '../../http/auth/connector-principal';
import type { CommandContext } from '../shared/command-context';

export const PROPOSED_TYPES = ['fact', 'faq', 'policy', 'procedure', 'correction'] as const;
export const PROPOSED_AUTHORITY_ROLES = ['authoritative', 'supporting', 'unverified'] as const;

export interface ProposeMemoryInput {
  title: string;
  content: string;
  proposed_type: (typeof PROPOSED_TYPES)[number];
  source_uri: string | null;
  proposed_policy: ProposedPolicy;
  /** Approval revises this item instead of creating one (a correction of what a reply cited). */
  target_memory_item_id?: number | null;
  /** Set for a correction from reply feedback. */
  correction?: ProposalCorrection | null;
  /** For a correction: the cited revision's text it replaces. */
  cited?: CitedSpan | null;
}

export class ProposeMemoryCommand {
  constructor(
    readonly connector: ConnectorPrincipal,
    readonly input: ProposeMemoryInput,
    readonly context: CommandContext,
    /**
     * Ids reserved by the caller (a correction's feedback reservation): capturing is then idempotent, so the
     * submissions that resume one reservation capture one proposal.
     */
    readonly reserved: { proposal_id: number; memory_source_id: number } | null = null,
  ) {}
}

/** Spec §2.4. */
export interface ProposeMemoryResult {
  ok: true;
  memory_source_id: number;
  proposal_id: number;
  status: 'captured';
  unsafe_flags: [];
}
