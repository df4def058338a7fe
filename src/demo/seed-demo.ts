import { CommandBus } from '@nestjs/cqrs';
import { CreateChatbotCommand, type CreateChatbotResult } from '../commands/chatbots/create-chatbot.command';
import {
  PublishClientPageCommand,
  type PublishClientPageResult,
} from '../commands/client-pages/publish-client-page.command';
import { FIXED_CAPABILITIES } from '../commands/connectors/capabilities';
import {
  RegisterConnectorCommand,
  type RegisterConnectorResult,
} from '../commands/connectors/register-connector.command';
import { IngestDocumentCommand, type IngestDocumentResult } from '../commands/memory/ingest-document.command';
import { organizationSlugDecider } from '../commands/organizations/organization-slug.decider';
import {
  RegisterOrganizationCommand,
  type RegisterOrganizationResult,
} from '../commands/organizations/register-organization.command';
import { systemContext } from '../commands/shared/command-context';
import { StreamCommandExecutor } from '../commands/shared/stream-command-executor';
import { streams } from '../events/domain-event';
import { READ_STORE, type ReadStore } from '../infrastructure/read-store/read-store.port';
import { CHATBOTS, type ChatbotDocument } from '../projections/chatbots.projection';
import { CONNECTORS, type ConnectorDocument } from '../projections/connectors.projection';
import { DEMO, DEMO_DOCUMENTS } from './demo-content';

/** `app.get` of a Nest application or ModuleRef. */
type DependencyLookup = <T>(
  token: symbol | (abstract new (...args: never[]) => T),
  options: { strict: boolean },
) => T;

export interface DemoSummary {
  /** True when anything was created by this call. */
  created: boolean;
  organization_id: number;
  slug: string;
  chatbot_id: number;
  connector_id: number;
  /** Only when the connectors were created now: tokens are shown once. */
  token: string | null;
  /** A connector holding only memory_search, to see a 403 on other endpoints. */
  limited_token: string | null;
  knowledge_items: Array<{ memory_item_id: number; title: string; status: IngestDocumentResult['status'] }>;
  /** The demo's public client page (`/clients/harbor-dental`). */
  client_page_url: string;
}

/** The demo organization's public client page. Publishing the same content again records nothing. */
const DEMO_CLIENT_PAGE = {
  organizationSummary:
    'Harbor Dental Clinic is a family dental practice by the harbor offering check-ups, cleaning, fillings and ' +
    'emergency care six days a week.',
  assistantUseSummary:
    'The website assistant answers questions about opening hours, treatments and prices, and tells patients ' +
    'what to do in a dental emergency.',
} as const;

/**
 * Creates the demo organization, chatbot, connectors and knowledge items. Every step first looks for what an
 * earlier run made, so later starts change nothing and an interrupted first start completes on the next.
 */
export async function seedDemo(app: { get: DependencyLookup }): Promise<DemoSummary> {
  const commands = app.get(CommandBus, { strict: false });
  const executor = app.get(StreamCommandExecutor, { strict: false });
  const readStore = app.get<ReadStore>(READ_STORE, { strict: false });
  const context = systemContext('demo');
  let created = false;

  const claim = await executor.load(streams.organizationSlug(DEMO.slug), organizationSlugDecider);
  let organizationId = claim.state.claimed_by;
  if (organizationId === null) {
    const organization = await commands.execute<RegisterOrganizationCommand, RegisterOrganizationResult>(
      new RegisterOrganizationCommand(DEMO.organizationName, DEMO.slug, DEMO.websiteUrl, context),
    );
    organizationId = organization.organization_id;
    created = true;
  }

  const chatbots = await readStore.find<ChatbotDocument>(CHATBOTS, {
    filter: { organization_id: organizationId },
    limit: 1,
  });
  let chatbotId = chatbots.items[0]?.chatbot_id;
  if (chatbotId === undefined) {
    const chatbot = await commands.execute<CreateChatbotCommand, CreateChatbotResult>(
      new CreateChatbotCommand(organizationId, DEMO.chatbotName, DEMO.allowedDomain, context),
    );
    chatbotId = chatbot.chatbot_id;
    created = true;
  }

  const page = await commands.execute<PublishClientPageCommand, PublishClientPageResult>(
    new PublishClientPageCommand(
      organizationId,
      chatbotId,
      DEMO.slug,
      DEMO_CLIENT_PAGE.organizationSummary,
      DEMO_CLIENT_PAGE.assistantUseSummary,
      context,
    ),
  );
  if (page.changed) created = true;

  const connectors = await readStore.find<ConnectorDocument>(CONNECTORS, {
    filter: { organization_id: organizationId },
    sort: [{ field: 'connector_id', direction: 'asc' }],
    limit: 1,
  });
  let connectorId = connectors.items[0]?.connector_id;
  let token: string | null = null;
  let limitedToken: string | null = null;
  if (connectorId === undefined) {
    const full = await commands.execute<RegisterConnectorCommand, RegisterConnectorResult>(
      new RegisterConnectorCommand(
        organizationId,
        'Demo connector',
        [...FIXED_CAPABILITIES],
        'strict',
        context,
      ),
    );
    const limited = await commands.execute<RegisterConnectorCommand, RegisterConnectorResult>(
      new RegisterConnectorCommand(
        organizationId,
        'Demo search-only connector',
        ['memory_search'],
        'strict',
        context,
      ),
    );
    connectorId = full.connector_id;
    token = full.token;
    limitedToken = limited.token;
    created = true;
  }

  const knowledge: DemoSummary['knowledge_items'] = [];
  for (const document of DEMO_DOCUMENTS) {
    const result = await commands.execute<IngestDocumentCommand, IngestDocumentResult>(
      new IngestDocumentCommand(
        organizationId,
        {
          document_key: document.key,
          title: document.title,
          content: document.content,
          format: 'markdown',
          type: document.type,
          audience: 'customer_safe',
          authority_level: 'approved_source',
          source_label: 'Harbor Dental website',
          source_uri: document.sourceUri,
          source_date: '2026-01-15T00:00:00.000Z',
          effective_at: '2026-01-15T00:00:00.000Z',
          expires_at: null,
          summary: null,
        },
        context,
      ),
    );
    if (result.status !== 'unchanged') created = true;
    knowledge.push({ memory_item_id: result.memory_item_id, title: document.title, status: result.status });
  }

  return {
    created,
    organization_id: organizationId,
    slug: DEMO.slug,
    chatbot_id: chatbotId,
    connector_id: connectorId,
    token,
    limited_token: limitedToken,
    knowledge_items: knowledge,
    client_page_url: page.url,
  };
}

/** What a newcomer reads after `npm start`. */
export function printDemo(demo: DemoSummary, baseUrl: string, demoModel = false): string {
  const lines = [
    '',
    `Demo organization "${DEMO.organizationName}": organization ${demo.organization_id} (slug ${demo.slug}), ` +
      `chatbot ${demo.chatbot_id}, connector ${demo.connector_id}, ${demo.knowledge_items.length} knowledge items.`,
  ];
  if (demo.token) {
    lines.push(
      'Demo connector token (shown once, store it now):',
      `  ${demo.token}`,
      'A search-only connector token:',
      `  ${demo.limited_token ?? ''}`,
      'Try it:',
      `  curl -s -H "Authorization: Bearer ${demo.token}" ${baseUrl}/app/api/tool-connectors/v1/connector`,
      `  curl -s -H "Authorization: Bearer ${demo.token}" -H 'content-type: application/json' \\`,
      `    -d '{"query": "Saturday opening hours", "include_context_package": true}' ${baseUrl}/app/api/tool-connectors/v1/memory/search`,
      'The search-only token may search, but saving answers 403:',
      `  curl -s -H "Authorization: Bearer ${demo.limited_token ?? ''}" -H 'content-type: application/json' \\`,
      `    -d '{"kind": "note", "title": "x", "content": "y"}' ${baseUrl}/app/api/tool-connectors/v1/memory/save`,
    );
  } else {
    lines.push(
      'The demo token was printed on the first start only (tokens are stored as SHA-256). For a new one:',
      `  npx cairn connector:rotate-token ${demo.organization_id} ${demo.connector_id}`,
    );
  }
  lines.push(
    demoModel
      ? 'Replies come from the DEMO MODEL (--demo-model / CAIRN_DEMO_MODEL=on): no language model, it quotes its ' +
          'evidence; the README tour asks for a reply and sends feedback on it.'
      : 'Replies need a model (OPENAI_BASE_URL, CAIRN_COMPOSER_MODEL, CAIRN_REVIEWER_MODEL), or start with --demo-model.',
    `Public client page: ${demo.client_page_url} (directory: ${baseUrl}/clients)`,
    `API reference: ${baseUrl}/docs`,
    '',
  );
  return lines.join('\n');
}
