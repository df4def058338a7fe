import { CreateChatbotCommand } from '../../src/commands/chatbots/create-chatbot.command';
import { operatorContext } from '../../src/commands/shared/command-context';
import { createConnector, createOrganization } from './fixtures';
import { ALL_MEMORY, MEMORY, ingest } from './memory-fixtures';
import { REPLIES } from './reply-fixtures';
import { http, startTestApp, type TestApp } from './test-app';

/**
 * Every POST endpoint of the connector API with a valid body, and the field a hostile structure is put into
 * (issue 20: deep, wide and odd bodies).
 */
export interface PostEndpoint {
  name: string;
  path: string;
  valid: Record<string, unknown>;
  /** The field a generated structure replaces (a free-form field where the endpoint has one). */
  field: string;
}

export interface HostileHarness {
  t: TestApp;
  token: string;
  endpoints: PostEndpoint[];
  /** POSTs raw text (or a value, serialized) to an endpoint with the all-capabilities token. */
  post(endpoint: PostEndpoint, body: string | Buffer): ReturnType<typeof http>;
  /** The event store's head position (unchanged after a refusal: nothing stored). */
  head(): Promise<number>;
  close(): Promise<void>;
}

/** A server with one organization, an assistant, a document and a connector holding every capability. */
export async function startHostileHarness(env: Record<string, string> = {}): Promise<HostileHarness> {
  const t = await startTestApp(env);
  const org = (await createOrganization(t.commands, 'Hostile bodies')).organization_id;
  await t.commands.execute(new CreateChatbotCommand(org, 'Front desk', null, operatorContext('test')));
  const { token } = await createConnector(t.commands, org, [
    ...ALL_MEMORY,
    'assistant_reply',
    'assistant_feedback',
  ]);
  const item = await ingest(t.commands, org, 'Herons', 'The heron pond is behind the clinic.');
  const search = await http(t.baseUrl, 'POST', `${MEMORY}/search`, { token, body: { query: 'heron' } });
  const endpoints: PostEndpoint[] = [
    { name: 'search', path: `${MEMORY}/search`, valid: { query: 'heron', limit: 5 }, field: 'query' },
    {
      name: 'save',
      path: `${MEMORY}/save`,
      valid: { kind: 'note', title: 'Heron note', content: 'Heron pond.' },
      field: 'content',
    },
    {
      name: 'proposals',
      path: `${MEMORY}/proposals`,
      valid: { title: 'Heron fact', content: 'Herons nest in spring.' },
      field: 'content',
    },
    {
      name: 'usage',
      path: `${MEMORY}/usage`,
      valid: { trace_id: search.body.trace_id, used_item_ids: [item.memory_item_id] },
      field: 'used_item_ids',
    },
    {
      name: 'replies',
      path: REPLIES,
      valid: {
        external_thread_id: 'thread-1',
        idempotency_key: 'key-1',
        channel: 'email',
        payload: { text: 'When do herons nest?', history: [{ role: 'customer', text: 'Hello' }] },
        metadata: { source: 'test' },
      },
      field: 'metadata',
    },
    {
      name: 'feedback',
      path: `${REPLIES}/1/feedback`,
      valid: { rating: 'up', external_feedback_id: 'feedback-1' },
      field: 'note',
    },
  ];
  return {
    t,
    token,
    endpoints,
    post: (endpoint, body) => http(t.baseUrl, 'POST', endpoint.path, { token, rawBody: body }),
    head: () => t.stores.eventStore.headPosition(),
    close: () => t.close(),
  };
}

/** `depth` arrays (or objects) nested inside each other around `inner`, as JSON text. */
export function nested(depth: number, kind: 'array' | 'object', inner = '1'): string {
  return kind === 'array'
    ? `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`
    : `${'{"a":'.repeat(depth)}${inner}${'}'.repeat(depth)}`;
}

/** The endpoint's valid body with its hostile field set to `json` (raw JSON text). */
export function withField(endpoint: PostEndpoint, json: string, field = endpoint.field): string {
  const rest = { ...endpoint.valid };
  delete rest[field];
  const head = JSON.stringify(rest).slice(0, -1);
  return `${head}${head.length > 1 ? ',' : ''}${JSON.stringify(field)}:${json}}`;
}
