import type { CommandContext } from '../shared/command-context';

/** Operator: publish (or update, or republish) the public page of one of the organization's chatbots. */
export class PublishClientPageCommand {
  constructor(
    readonly organizationId: number,
    readonly chatbotId: number,
    readonly slug: string,
    readonly organizationSummary: string,
    readonly assistantUseSummary: string,
    readonly context: CommandContext,
  ) {}
}

export interface PublishClientPageResult {
  client_page_id: number;
  slug: string;
  /** The public page: `${CAIRN_PUBLIC_URL}/clients/{slug}`. */
  url: string;
  status: 'published';
  /** False when the page was already published with exactly this content (nothing was recorded). */
  changed: boolean;
}
