export class ListProposalsQuery {
  constructor(
    readonly organizationId: number,
    readonly status: 'captured' | 'approved' | 'rejected' | null,
  ) {}
}
