export class ListToolsQuery {
  constructor(readonly organizationId: number) {}
}
