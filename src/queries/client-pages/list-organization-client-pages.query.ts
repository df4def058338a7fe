/** Every client page of an organization, whatever its status (operators: `client-page:list`). */
export class ListOrganizationClientPagesQuery {
  constructor(readonly organizationId: number) {}
}

export interface OrganizationClientPage {
  client_page_id: number;
  chatbot_id: number;
  slug: string;
  url: string;
  status: 'published' | 'unpublished' | 'hidden';
  /** ISO 8601 timestamps. */
  published_at: string;
  updated_at: string;
  organization_summary: string;
  assistant_use_summary: string;
}
