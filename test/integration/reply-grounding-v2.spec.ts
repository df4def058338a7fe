import { CreateChatbotCommand } from '../../src/commands/chatbots/create-chatbot.command';
import { operatorContext } from '../../src/commands/shared/command-context';
import { createConnector, createOrganization } from '../support/fixtures';
import { CASES_V2, DOCS_V2 } from '../support/grounding/grounding-v2';
import { CASES_V3, DOCS_V3 } from '../support/grounding/grounding-v3';
import {
  runCaseV2,
  summarizeV2,
  v2Handlers,
  type CaseV2,
  type V2Result,
} from '../support/grounding/v2-cases';
import { ingest } from '../support/memory-fixtures';
import { reply, type ModelServer } from '../support/model-server';
import { REPLY_CAPABILITIES, startModelApp } from '../support/reply-fixtures';
import type { TestApp } from '../support/test-app';

/** A representative subset of a corpus: the first cases of every kind (all of `npm run eval:grounding`'s). */
const PER_KIND = 3;
const subset = (cases: readonly CaseV2[]): CaseV2[] =>
  [...new Set(cases.map((c) => c.kind))].flatMap((kind) =>
    cases.filter((c) => c.kind === kind).slice(0, PER_KIND),
  );

const CORPORA = [
  { label: 'v2', docs: DOCS_V2, cases: CASES_V2 },
  { label: 'v3', docs: DOCS_V3, cases: CASES_V3 },
];

describe.each(CORPORA)(
  'grounding $label: quote-bound claims hold whatever the models say (invariant 3)',
  (corpus) => {
    let model: ModelServer;
    let t: TestApp;
    let close: () => Promise<void>;
    let token: string;
    const v2 = v2Handlers(corpus.cases);
    const results: V2Result[] = [];

    beforeAll(async () => {
      ({ model, t, close } = await startModelApp({ CAIRN_MODEL_TIMEOUT_MS: '1500' }));
      model.script.respond('draft', (request) => v2.draft(request) ?? reply.status(500));
      model.script.respond('review', (request) => v2.review(request) ?? reply.status(500));
      const organizationId = (await createOrganization(t.commands, `Grounding ${corpus.label}`))
        .organization_id;
      await t.commands.execute(
        new CreateChatbotCommand(organizationId, 'Desk', null, operatorContext('test')),
      );
      ({ token } = await createConnector(t.commands, organizationId, REPLY_CAPABILITIES));
      for (const doc of corpus.docs) {
        await ingest(t.commands, organizationId, doc.title, doc.content, {
          audience: doc.audience,
          authority_level: doc.authority,
          source_uri: doc.source_uri,
          source_date: doc.source_date ?? null,
          expires_at: doc.expires_at ?? null,
        });
      }
    });
    afterAll(() => close());

    it.each(subset(corpus.cases).map((c) => [c.id, c.kind, c] as const))('%s (%s)', async (_id, _kind, c) => {
      const result = await runCaseV2(t.baseUrl, token, c, 'spec', v2.observed);
      results.push(result);
      if (c.expect === 'refused') expect(result.verdict).toBe('ok');
    });

    it('no leak, and at least 90% of the controls in the subset answer', () => {
      const summary = summarizeV2(results);
      expect(summary.leaks).toBe(0);
      expect(summary.controlsAnswered).toBeGreaterThanOrEqual(Math.ceil(summary.controls * 0.9));
    });
  },
);
