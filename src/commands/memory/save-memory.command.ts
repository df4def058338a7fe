import type { ConnectorPrincipal } from '../../http/auth/connector-principal';
import type { CommandContext } from '../shared/command-context';

export const SAVE_KINDS = ['handoff', 'work_log', 'note', 'decision'] as const;
export type SaveKind = (typeof SAVE_KINDS)[number];

export interface SaveMemoryInput {
  kind: SaveKind;
  title: string;
  content: string;
  summary: string | null;
  visibility: 'tool_private' | 'organization_internal';
  idempotency_key: string | null;
  source_uri: string | null;
}

export class SaveMemoryCommand {
  constructor(
    readonly connector: ConnectorPrincipal,
    readonly input: SaveMemoryInput,
    readonly context: CommandContext,
  ) {}
}

/** Spec §2.3. */
export interface SaveMemoryResult {
  ok: true;
  memory_source_id: number;
  memory_item_id: number;
  status: 'confirmed';
  visibility: 'tool_private' | 'organization_internal';
  unsafe_flags: [];
}
