import type { ConnectorPrincipal } from '../../http/auth/connector-principal';
import type { CommandContext } from '../shared/command-context';

export class ReportUsageCommand {
  constructor(
    readonly connector: ConnectorPrincipal,
    readonly traceId: number,
    readonly usedItemIds: number[],
    readonly ignoredItemIds: number[],
    readonly context: CommandContext,
  ) {}
}
