import { CommandBus } from '@nestjs/cqrs';
import { organizationSlugDecider } from '../commands/organizations/organization-slug.decider';
import { systemContext } from '../commands/shared/command-context';
import { StreamCommandExecutor } from '../commands/shared/stream-command-executor';
import { RegisterOrganizationCommand, type RegisterOrganizationResult } from '../commands/organizations/register-organization.command';
import { CreateChatbotCommand, type CreateChatbotResult } from '../commands/chatbots/create-chatbot.command';
import { RegisterConnectorCommand, type RegisterConnectorResult } from '../commands/connectors/register-connector.command';
import { FIXED_CAPABILITIES } from '../commands/connectors/capabilities';
import { streams } from '../events/domain-event';
import { READ_STORE, type ReadStore } from '../infrastructure/read-store/read-store.port';
import { CHATBOTS, type ChatbotDocument } from '../projections/chatbots.projection';
import { CONNECTORS, type ConnectorDocument } from '../projections/connectors.projection';
import { DEMO } from './demo-content';

/** `app.get` of a Nest application or ModuleRef. */
type DependencyLookup = <T>(token: symbol | (abstract new (...args: never[]) => T), options: { strict: boolean }) => T;

export interface DemoSummary {
  created: boolean;
  organization_id: number;
  slug: string;
  chatbot_id: number | null;
  connector_id: number | null;
  /** Only when the demo was created now: tokens are shown once. */
  token: string | null;
  /** A connector holding only memory_search, to see a 403 on other endpoints. */
  limited_token: string | null;
}

/** Creates the demo organization, chatbot and connectors once; later calls find them and change nothing. */
export async function seedDemo(app: { get: DependencyLookup }): Promise<DemoSummary> {
  const commands = app.get(CommandBus, { strict: false });
  const executor = app.get(StreamCommandExecutor, { strict: false });
  const readStore = app.get<ReadStore>(READ_STORE, { strict: false });
  const context = systemContext('demo');

  const claim = await executor.load(streams.organizationSlug(DEMO.slug), organizationSlugDecider);
  if (claim.state.claimed_by !== null) {
    const organizationId = claim.state.claimed_by;
    const [chatbots, connectors] = await Promise.all([
      readStore.find<ChatbotDocument>(CHATBOTS, { filter: { organization_id: organizationId }, limit: 1 }),
      readStore.find<ConnectorDocument>(CONNECTORS, { filter: { organization_id: organizationId }, limit: 1 }),
    ]);
    return {
      created: false,
      organization_id: organizationId,
      slug: DEMO.slug,
      chatbot_id: chatbots.items[0]?.chatbot_id ?? null,
      connector_id: connectors.items[0]?.connector_id ?? null,
      token: null,
      limited_token: null,
    };
  }

  const organization = await commands.execute<RegisterOrganizationCommand, RegisterOrganizationResult>(
    new RegisterOrganizationCommand(DEMO.organizationName, DEMO.slug, DEMO.websiteUrl, context),
  );
  const chatbot = await commands.execute<CreateChatbotCommand, CreateChatbotResult>(
    new CreateChatbotCommand(organization.organization_id, DEMO.chatbotName, DEMO.allowedDomain, context),
  );
  const connector = await commands.execute<RegisterConnectorCommand, RegisterConnectorResult>(
    new RegisterConnectorCommand(organization.organization_id, 'Demo connector', [...FIXED_CAPABILITIES], 'strict', context),
  );
  const limited = await commands.execute<RegisterConnectorCommand, RegisterConnectorResult>(
    new RegisterConnectorCommand(organization.organization_id, 'Demo search-only connector', ['memory_search'], 'strict', context),
  );
  return {
    created: true,
    organization_id: organization.organization_id,
    slug: organization.slug,
    chatbot_id: chatbot.chatbot_id,
    connector_id: connector.connector_id,
    token: connector.token,
    limited_token: limited.token,
  };
}

/** What a newcomer reads after `npm start`. */
export function printDemo(demo: DemoSummary, baseUrl: string): string {
  const lines = [
    '',
    `Demo organization "${DEMO.organizationName}": organization ${demo.organization_id}, slug ${demo.slug}, ` +
      `chatbot ${demo.chatbot_id ?? '-'}, connector ${demo.connector_id ?? '-'}.`,
  ];
  if (demo.token) {
    lines.push(
      'Demo connector token (shown once, store it now):',
      `  ${demo.token}`,
      'A search-only connector token (its other endpoints answer 403):',
      `  ${demo.limited_token ?? ''}`,
      'Try it:',
      `  curl -s -H "Authorization: Bearer ${demo.token}" ${baseUrl}/app/api/tool-connectors/v1/connector`,
    );
  } else {
    lines.push(
      'The demo token was printed on the first start only (tokens are stored as SHA-256). For a new one:',
      `  npx cairn connector:rotate-token ${demo.organization_id} ${demo.connector_id ?? '<connector>'}`,
    );
  }
  lines.push(`API reference: ${baseUrl}/docs`, '');
  return lines.join('\n');
}
