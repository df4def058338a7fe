import type { ErasedKind } from '../../events/erasure/erasure.events';
import type { CommandContext } from '../shared/command-context';

/** What an erasure names (the CLI, the admin API and the connector `forget` build this). */
export interface EraseSubjectInput {
  organization_id: number;
  kind: ErasedKind;
  /** The memory item or conversation id; the organization's id for `organization`. */
  id: number;
  /** Why (kept in the event; never the content). */
  reason: string | null;
  /** A connector's forget: only an item this connector saved itself; any other reads as not found. */
  connector_id?: number;
}

/**
 * Erases a subject by destroying its data keys (crypto-shredding), records SubjectErased, and waits until the
 * read models dropped it. Erasing again changes nothing (`changed: false`).
 */
export class EraseSubjectCommand {
  constructor(
    readonly input: EraseSubjectInput,
    readonly context: CommandContext,
  ) {}
}

export interface EraseSubjectResult {
  subject: string;
  kind: ErasedKind;
  id: number;
  organization_id: number;
  erased: true;
  /** False when it was erased already (nothing appended, no key left to destroy). */
  changed: boolean;
  erased_by: string;
  erased_at: string;
  /** Subjects erased with it: for a memory item, the proposal whose approval created it. */
  linked_subjects: string[];
  keys_destroyed: number;
  /** The read models applied the erasure and the embedded file's WAL was checkpointed and emptied. */
  read_models_forgot: boolean;
}
