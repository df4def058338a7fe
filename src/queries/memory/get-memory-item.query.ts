import type { ConnectorPrincipal } from '../../http/auth/connector-principal';

export class GetMemoryItemQuery {
  constructor(
    readonly connector: ConnectorPrincipal,
    readonly memoryItemId: number,
  ) {}
}
