import type { CommandContext } from '../shared/command-context';

/** Operator: take an organization's page (named by its current slug) out of the public directory. */
export class UnpublishClientPageCommand {
  constructor(
    readonly organizationId: number,
    readonly slug: string,
    readonly context: CommandContext,
  ) {}
}

export interface UnpublishClientPageResult {
  client_page_id: number;
  slug: string;
  status: 'unpublished';
  /** False when the page was already unpublished. */
  changed: boolean;
}
