import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { Command, Option } from 'nest-commander';
import {
  PublishClientPageCommand,
  type PublishClientPageResult,
} from '../commands/client-pages/publish-client-page.command';
import {
  UnpublishClientPageCommand,
  type UnpublishClientPageResult,
} from '../commands/client-pages/unpublish-client-page.command';
import { operatorContext } from '../commands/shared/command-context';
import {
  ListOrganizationClientPagesQuery,
  type OrganizationClientPage,
} from '../queries/client-pages/list-organization-client-pages.query';
import { expectArgs, parseId, requireOption } from './cli-args';
import { JsonCommand } from './json-command';

interface PublishOptions {
  chatbot?: number;
  slug?: string;
  organizationSummary?: string;
  assistantUseSummary?: string;
}

@Command({
  name: 'client-page:publish',
  arguments: '<ORG>',
  description:
    'Publish (or update) the public page of a chatbot → {client_page_id, slug, url, status, changed}',
})
export class ClientPagePublishCommand extends JsonCommand {
  constructor(private readonly commands: CommandBus) {
    super();
  }

  protected execute(params: string[], options: PublishOptions): Promise<object> {
    expectArgs(
      params,
      1,
      'client-page:publish ORG --chatbot ID --slug S --organization-summary T --assistant-use-summary T',
    );
    return this.commands.execute<PublishClientPageCommand, PublishClientPageResult>(
      new PublishClientPageCommand(
        parseId(params[0], 'ORG'),
        requireOption(options.chatbot, '--chatbot'),
        requireOption(options.slug, '--slug'),
        requireOption(options.organizationSummary, '--organization-summary'),
        requireOption(options.assistantUseSummary, '--assistant-use-summary'),
        operatorContext(),
      ),
    );
  }

  @Option({ flags: '--chatbot <id>', description: 'the chatbot the page is about (one page per chatbot)' })
  parseChatbot(value: string): number {
    return parseId(value, '--chatbot');
  }

  @Option({ flags: '--slug <slug>', description: 'public URL slug: 3–64 of a-z, 0-9, single hyphens' })
  parseSlug(value: string): string {
    return value;
  }

  @Option({
    flags: '--organization-summary <text>',
    description: 'who the organization is (≤ 600 characters)',
  })
  parseOrganizationSummary(value: string): string {
    return value;
  }

  @Option({
    flags: '--assistant-use-summary <text>',
    description: 'what the assistant helps visitors with (≤ 600 characters)',
  })
  parseAssistantUseSummary(value: string): string {
    return value;
  }
}

@Command({
  name: 'client-page:unpublish',
  arguments: '<ORG> <SLUG>',
  description: 'Take a client page out of the public directory → {client_page_id, slug, status, changed}',
})
export class ClientPageUnpublishCommand extends JsonCommand {
  constructor(private readonly commands: CommandBus) {
    super();
  }

  protected execute(params: string[]): Promise<object> {
    expectArgs(params, 2, 'client-page:unpublish ORG SLUG');
    return this.commands.execute<UnpublishClientPageCommand, UnpublishClientPageResult>(
      new UnpublishClientPageCommand(parseId(params[0], 'ORG'), params[1], operatorContext()),
    );
  }
}

@Command({
  name: 'client-page:list',
  arguments: '<ORG>',
  description: 'Every client page of an organization with its status → {client_pages: [...]}',
})
export class ClientPageListCommand extends JsonCommand {
  constructor(private readonly queries: QueryBus) {
    super();
  }

  protected async execute(params: string[]): Promise<object> {
    expectArgs(params, 1, 'client-page:list ORG');
    const pages = await this.queries.execute<ListOrganizationClientPagesQuery, OrganizationClientPage[]>(
      new ListOrganizationClientPagesQuery(parseId(params[0], 'ORG')),
    );
    return { client_pages: pages };
  }
}
