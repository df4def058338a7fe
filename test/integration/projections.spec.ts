import { CreateChatbotCommand } from '../../src/commands/chatbots/create-chatbot.command';
import { SetChatbotPausedCommand } from '../../src/commands/chatbots/set-chatbot-paused.command';
import { ChangeOrganizationCommand } from '../../src/commands/organizations/change-organization.command';
import { IngestDocumentCommand } from '../../src/commands/memory/ingest-document.command';
import { operatorContext } from '../../src/commands/shared/command-context';
import { ProjectionRunner } from '../../src/projections/projection-runner';
import { changeConnector, createConnector, createOrganization } from '../support/fixtures';
import { startTestApp, type TestApp } from '../support/test-app';

describe('projections: rebuild', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t.close());

  async function snapshot(runner: ProjectionRunner): Promise<Record<string, unknown[]>> {
    const result: Record<string, unknown[]> = {};
    for (const projection of runner.projections) {
      for (const collection of projection.collections) {
        result[collection.name] = (await t.stores.readStore.find(collection.name, { limit: 10_000 })).items;
      }
    }
    const search: unknown[] = [];
    for await (const doc of t.stores.searchIndex.dump()) search.push(doc);
    result.search_index = search;
    return result;
  }

  it('rebuilding every read model reproduces the live one exactly', async () => {
    const context = operatorContext('test');
    for (let i = 0; i < 5; i++) {
      const org = await createOrganization(t.commands);
      const bot = await t.commands.execute(
        new CreateChatbotCommand(org.organization_id, `Bot ${i}`, 'example.com', context),
      );
      await t.commands.execute(
        new SetChatbotPausedCommand(org.organization_id, bot.chatbot_id, true, context),
      );
      const connector = await createConnector(t.commands, org.organization_id, ['memory_search']);
      await changeConnector(t.commands, org.organization_id, connector.connector_id, { type: 'RotateToken' });
      if (i % 2)
        await changeConnector(t.commands, org.organization_id, connector.connector_id, {
          type: 'RevokeToken',
        });
      await t.commands.execute(
        new ChangeOrganizationCommand(org.organization_id, { type: 'PauseAgentActivity' }, context),
      );
      await t.commands.execute(
        new ChangeOrganizationCommand(
          org.organization_id,
          { type: 'SetPlanLimit', monthly_replies: 100 + i },
          context,
        ),
      );
    }
    for (let i = 0; i < 5; i++) {
      const org = await createOrganization(t.commands, 'Memory');
      for (const version of [
        '# Hours\n\nOpen 9 to 5.',
        '# Hours\n\nOpen 8 to 6.\n\n# Prices\n\nCleaning $90.',
      ]) {
        await t.commands.execute(
          new IngestDocumentCommand(
            org.organization_id,
            {
              document_key: `doc-${i}`,
              title: `Doc ${i}`,
              content: version,
              format: 'markdown',
              type: 'faq',
              audience: 'customer_safe',
              authority_level: 'approved_source',
              source_label: 'site',
              source_uri: null,
              source_date: null,
              effective_at: null,
              expires_at: null,
              summary: null,
            },
            context,
          ),
        );
      }
    }
    const runner = t.app.get(ProjectionRunner);
    const live = await snapshot(runner);
    expect(live.organizations).toHaveLength(10);
    expect(live.connector_tokens).toHaveLength(10);
    expect(live.memory_items).toHaveLength(5);
    expect(live.search_index).toHaveLength(10);
    const rebuilt = await runner.rebuild(undefined, 30_000);
    expect(rebuilt.map((r) => r.name)).toEqual([
      'organizations',
      'chatbots',
      'connectors',
      'memory',
      'memory-usage',
      'memory-proposals',
      'conversations',
      'replies',
      'assistant-tools',
      'client-pages',
    ]);
    expect(await snapshot(runner)).toEqual(live);
    const status = await runner.status();
    for (const s of status) expect(s.lag).toBe(0);
  });
});
