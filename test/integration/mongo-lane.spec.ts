/**
 * The whole app with its read models on MongoDB's wire protocol (jongodb, test/support/jongodb-server.ts; a smoke
 * test, not MongoDB itself), events and search embedded: ingest, search, a reply, and a rebuild that reproduces
 * the live read models. Skipped where the jongodb binary does not exist (see read-store.mongo.spec.ts).
 */
import { ProjectionRunner } from '../../src/projections/projection-runner';
import { jongodbBinary, startJongodb, type JongodbServer } from '../support/jongodb-server';
import { MEMORY, ingest } from '../support/memory-fixtures';
import {
  startModelApp,
  citeAllEvidence,
  replyBody,
  REPLY_CAPABILITIES,
  REPLIES,
} from '../support/reply-fixtures';
import { createConnector, createOrganization } from '../support/fixtures';
import { http, type TestApp } from '../support/test-app';
import { CreateChatbotCommand } from '../../src/commands/chatbots/create-chatbot.command';
import { operatorContext } from '../../src/commands/shared/command-context';
import type { ModelServer } from '../support/model-server';

const binary = jongodbBinary();
const describeWithJongodb = binary === null ? describe.skip : describe;

describeWithJongodb('the app on a MongoDB wire-protocol read store (jongodb)', () => {
  // jongodb's transactions can overwrite concurrent writes to other documents of a collection they wrote (the
  // contract's known gaps; MongoDB keeps both). Two CI runs lost a rebuilt read model that way: another projection's
  // commit undid the reset's marker, and the emptied read model kept a checkpoint at the head. reset() now starts
  // over when its marker is gone, but a lost checkpoint move can still make a projection replay: one retry, logged,
  // keeps this smoke lane stable; a regression of Cairn's own fails both attempts.
  jest.retryTimes(1, { logErrorsBeforeRetry: true });
  let server: JongodbServer;
  let t: TestApp;
  let model: ModelServer;
  let close: () => Promise<void>;
  // A server and an app per attempt: a retry must not compare against what a failed attempt left behind (its
  // rebuild's losses stayed in the server, and the retry's rebuild, replaying both attempts' events, differed).
  beforeEach(async () => {
    server = await startJongodb(binary ?? '');
    ({ t, model, close } = await startModelApp({ MONGODB_URL: server.url }));
  }, 60_000);
  afterEach(async () => {
    await close?.();
    await server?.stop();
  });

  it('ingests, searches, replies and rebuilds', async () => {
    expect(t.stores.engines.read_store).toBe('mongodb');
    const org = (await createOrganization(t.commands, 'Mongo lane')).organization_id;
    const { chatbot_id } = await t.commands.execute<CreateChatbotCommand, { chatbot_id: number }>(
      new CreateChatbotCommand(org, 'Desk', null, operatorContext('test')),
    );
    expect(chatbot_id).toBeGreaterThan(0);
    const { token } = await createConnector(t.commands, org, REPLY_CAPABILITIES);
    await ingest(t.commands, org, 'Pool hours', 'The zqmongopool opens at nine on Saturdays.');
    await ingest(t.commands, org, 'Parking', 'Parking is free behind the clinic.');

    const search = await http(t.baseUrl, 'POST', `${MEMORY}/search`, {
      token,
      body: { query: 'zqmongopool' },
    });
    expect(search.status).toBe(200);
    expect((search.body.results as unknown[]).length).toBe(1);

    model.script.respond('draft', citeAllEvidence);
    const reply = await http(t.baseUrl, 'POST', REPLIES, {
      token,
      body: replyBody('mongo-1', 'When does the zqmongopool open?'),
    });
    expect(reply.body).toMatchObject({ ok: true });

    const runner = t.app.get(ProjectionRunner);
    const snapshot = async (): Promise<Record<string, unknown[]>> => {
      const result: Record<string, unknown[]> = {};
      for (const projection of runner.projections) {
        for (const collection of projection.collections) {
          result[collection.name] = (await t.stores.readStore.find(collection.name, { limit: 10_000 })).items;
        }
      }
      return result;
    };
    // Every read model caught up with the log (the reply's receipt view is fed after the reply answers).
    expect(await runner.waitFor(await t.stores.eventStore.headPosition(), 30_000)).toBe(true);
    const live = await snapshot();
    expect(
      live.memory_items.filter((item) => (item as { organization_id: number }).organization_id === org),
    ).toHaveLength(2);
    await runner.rebuild(undefined, 30_000);
    expect(await snapshot()).toEqual(live);
  }, 120_000);
});
