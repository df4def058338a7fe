import type { RecallResult } from '../../events/memory/recall.events';
import type { ConnectorPrincipal } from '../../http/auth/connector-principal';
import type { CommandContext } from '../shared/command-context';

export class RecordRecallTraceCommand {
  constructor(
    readonly connector: ConnectorPrincipal,
    readonly search: {
      query: string;
      visibility: 'tool_private' | 'organization_internal' | null;
      limit: number;
      results: RecallResult[];
      index_revision: string;
    },
    readonly context: CommandContext,
  ) {}
}
