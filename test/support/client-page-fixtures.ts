import { CommandBus } from '@nestjs/cqrs';
import {
  CreateChatbotCommand,
  type CreateChatbotResult,
} from '../../src/commands/chatbots/create-chatbot.command';
import {
  PublishClientPageCommand,
  type PublishClientPageResult,
} from '../../src/commands/client-pages/publish-client-page.command';
import {
  UnpublishClientPageCommand,
  type UnpublishClientPageResult,
} from '../../src/commands/client-pages/unpublish-client-page.command';
import {
  RegisterOrganizationCommand,
  type RegisterOrganizationResult,
} from '../../src/commands/organizations/register-organization.command';
import { operatorContext } from '../../src/commands/shared/command-context';
import { Clock } from '../../src/common/clock';
import { startTestApp, type TestApp } from './test-app';

/** A clock the test moves: events appended while it stands still share one timestamp (ties). */
export class ManualClock extends Clock {
  private current = Date.parse('2026-03-01T09:00:00.000Z');
  now(): Date {
    return new Date(this.current);
  }
  set(iso: string): void {
    this.current = Date.parse(iso);
  }
  advance(ms: number): void {
    this.current += ms;
  }
}

export const PUBLIC_URL = 'https://directory.example.org';

/** A real HTTP server (random port, fresh data dir) with a manual clock and CAIRN_PUBLIC_URL set. */
export async function startClientPagesApp(
  env: Record<string, string> = {},
): Promise<TestApp & { clock: ManualClock }> {
  const clock = new ManualClock();
  const app = await startTestApp(
    { CAIRN_PUBLIC_URL: PUBLIC_URL, CAIRN_PUBLIC_RATE_LIMIT: '0', ...env },
    undefined,
    [],
    clock,
  );
  return Object.assign(app, { clock });
}

export interface ClientSite {
  organization_id: number;
  chatbot_id: number;
  slug: string;
}

const context = operatorContext('test');

export async function registerOrganization(
  commands: CommandBus,
  name: string,
  slug: string,
  websiteUrl: string | null,
): Promise<RegisterOrganizationResult> {
  return commands.execute(new RegisterOrganizationCommand(name, slug, websiteUrl, context));
}

export async function createChatbot(
  commands: CommandBus,
  organizationId: number,
  name: string,
  allowedDomain: string | null,
): Promise<CreateChatbotResult> {
  return commands.execute(new CreateChatbotCommand(organizationId, name, allowedDomain, context));
}

export async function publishPage(
  commands: CommandBus,
  organizationId: number,
  chatbotId: number,
  slug: string,
  organizationSummary: string,
  assistantUseSummary: string,
): Promise<PublishClientPageResult> {
  return commands.execute(
    new PublishClientPageCommand(
      organizationId,
      chatbotId,
      slug,
      organizationSummary,
      assistantUseSummary,
      context,
    ),
  );
}

export async function unpublishPage(
  commands: CommandBus,
  organizationId: number,
  slug: string,
): Promise<UnpublishClientPageResult> {
  return commands.execute(new UnpublishClientPageCommand(organizationId, slug, context));
}

let sequence = 0;

/**
 * An organization (website https://{slug}.example.com/), a chatbot on www.{slug}.example.com, and its page
 * published under `slug`. Summaries default to ones naming the organization.
 */
export async function publishClient(
  commands: CommandBus,
  input: { name: string; slug: string; organizationSummary?: string; assistantUseSummary?: string },
): Promise<ClientSite> {
  sequence += 1;
  const organization = await registerOrganization(
    commands,
    input.name,
    `org-${sequence}-${input.slug}`.slice(0, 64).replace(/-+$/, ''),
    `https://${input.slug}.example.com/`,
  );
  const chatbot = await createChatbot(
    commands,
    organization.organization_id,
    `${input.name} assistant`,
    `www.${input.slug}.example.com`,
  );
  await publishPage(
    commands,
    organization.organization_id,
    chatbot.chatbot_id,
    input.slug,
    input.organizationSummary ?? `${input.name} is an organization.`,
    input.assistantUseSummary ?? 'The assistant answers visitor questions.',
  );
  return { organization_id: organization.organization_id, chatbot_id: chatbot.chatbot_id, slug: input.slug };
}
