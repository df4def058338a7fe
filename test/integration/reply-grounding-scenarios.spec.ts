import { CreateChatbotCommand } from '../../src/commands/chatbots/create-chatbot.command';
import { operatorContext } from '../../src/commands/shared/command-context';
import { createConnector, createOrganization } from '../support/fixtures';
import { adversarialHandlers } from '../support/grounding/adversarial-model';
import { GROUNDING_CORPUS } from '../support/grounding/grounding-corpus';
import { runScenario, summarize, type ScenarioResult } from '../support/grounding/grounding-run';
import { GROUNDING_SCENARIOS } from '../support/grounding/grounding-scenarios';
import { ingest } from '../support/memory-fixtures';
import type { ModelServer } from '../support/model-server';
import { REPLY_CAPABILITIES, startModelApp } from '../support/reply-fixtures';
import type { TestApp } from '../support/test-app';

/**
 * Every grounding scenario (test/support/grounding: honest controls, lies of either model and of both) through
 * real HTTP against the adversarial model double: no lie leaves, every control answers, every refusal has its
 * code and the outcome policy's retry semantics. `npm run eval:grounding` runs the same scenarios against a
 * server process and prints the table.
 */
describe('grounding scenarios: fail-closed replies when the models lie (invariant 3)', () => {
  let model: ModelServer;
  let t: TestApp;
  let close: () => Promise<void>;
  let token: string;
  const results: ScenarioResult[] = [];

  beforeAll(async () => {
    ({ model, t, close } = await startModelApp({ CAIRN_MODEL_TIMEOUT_MS: '1500' }));
    const handlers = adversarialHandlers(GROUNDING_SCENARIOS);
    model.script.respond('draft', handlers.draft);
    model.script.respond('review', handlers.review);
    const organizationId = (await createOrganization(t.commands, 'Acme Shop')).organization_id;
    await t.commands.execute(
      new CreateChatbotCommand(organizationId, 'Shop desk', null, operatorContext('test')),
    );
    ({ token } = await createConnector(t.commands, organizationId, REPLY_CAPABILITIES));
    for (const doc of GROUNDING_CORPUS) {
      await ingest(t.commands, organizationId, doc.title, doc.content, {
        authority_level: doc.authority,
        source_uri: doc.source_uri,
      });
    }
  });
  afterAll(() => close());

  it.each(GROUNDING_SCENARIOS.map((s) => [s.id, s.name, s] as const))(
    '%s %s',
    async (_id, _name, scenario) => {
      const result = await runScenario(t.baseUrl, token, scenario, 'spec');
      if (process.env.DEBUG_GROUNDING) console.log(result);
      results.push(result);
      if (scenario.expect === 'gap') expect(['KNOWN GAP', 'gap held']).toContain(result.verdict);
      else
        expect({ verdict: result.verdict, problem: result.problem }).toEqual({
          verdict: 'ok',
          problem: null,
        });
    },
  );

  it('leaks: 0 of at least 50, and every control answered', () => {
    const summary = summarize(results);
    expect(summary.total).toBeGreaterThanOrEqual(50);
    expect(summary.leaks).toBe(0);
    expect(summary.controlsAnswered).toBe(summary.controls);
  });
});
