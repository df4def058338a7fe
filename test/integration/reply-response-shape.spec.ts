import { recallResults } from '../../src/events/memory/recall-results';
import type { RecallTraceRecorded } from '../../src/events/memory/recall.events';
import { REVIEWER_SYSTEM_PROMPT } from '../../src/ai/reply-reviewer';
import { referenceId } from '../../src/commands/replies/reply-evidence';
import { streams } from '../../src/events/domain-event';
import {
  itemContent,
  MEMORY_CORPUS,
  MEMORY_ITEMS,
  type MemoryCorpusDocument,
  type MemoryItemDocument,
} from '../../src/projections/memory.projection';
import { ingest } from '../support/memory-fixtures';
import { reply, type ModelServer } from '../support/model-server';
import { startModelApp } from '../support/reply-fixtures';
import { createReplyTenant, type ReplyTenant } from '../support/reply-tenant';
import type { TestApp } from '../support/test-app';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * Spec §2.5–2.7: every field of a suggested reply, its references and its grounding, compared whole against what
 * the stores hold (the recall trace, the memory item, the conversation, the corpus revisions, the model calls).
 */
describe('suggested reply shape, every field (spec §2.5, §2.6, §2.7)', () => {
  let model: ModelServer;
  let t: TestApp;
  let close: () => Promise<void>;
  let tenant: ReplyTenant;
  let supportingId: number;

  beforeAll(async () => {
    ({ model, t, close } = await startModelApp());
    tenant = await createReplyTenant(t, 'Shape');
    supportingId = (
      await ingest(
        t.commands,
        tenant.organization_id,
        'Clinic parking',
        'The clinic has free parking on Elm Street.',
        {
          authority_level: 'reference',
          source_uri: 'https://clinic.example.com/parking#elm',
          source_date: '2026-01-15T00:00:00.000Z',
        },
      )
    ).memory_item_id;
  });
  afterAll(() => close());

  it('answers with exactly the §2.5 fields, bound to what the stores hold', async () => {
    const started = Date.now();
    model.script.draft((request) => {
      const evidence = (request.input as { evidence: Array<{ reference_id: string; title: string }> })
        .evidence;
      const id = (title: string) => evidence.find((e) => e.title === title)?.reference_id ?? 'missing';
      return reply.json({
        answer: 'ignored: the answer is the claims',
        claims: [
          {
            text: 'The clinic is open Monday to Friday, 8:00 to 18:00.',
            reference_ids: [id('Opening hours')],
            quotes: [
              {
                reference_id: id('Opening hours'),
                text: 'The clinic is open Monday to Friday, 8:00 to 18:00.',
              },
            ],
          },
          {
            text: 'The clinic has free parking on Elm Street.',
            reference_ids: [id('Clinic parking')],
            quotes: [
              { reference_id: id('Clinic parking'), text: 'The clinic has free parking on Elm Street.' },
            ],
          },
        ],
        answer_mode: 'facts',
        answer_intent: 'answer_business_question',
        inferences: ['the caller wants to visit'],
        uncertainties: [],
        gaps: ['holiday hours'],
        abstain: false,
      });
    });
    const res = await tenant.request(
      tenant.body('shape', {
        external_message_id: 'msg-shape-1',
        payload: { text: 'When is the clinic open and is there parking?', subject: 'Visit' },
      }),
    );
    expect(res.status).toBe(200);
    const body = res.body;

    const items = await t.stores.readStore.getMany<MemoryItemDocument>(MEMORY_ITEMS, [
      String(tenant.memory_item_id),
      String(supportingId),
    ]);
    const hours = items.get(String(tenant.memory_item_id)) as MemoryItemDocument;
    const parking = items.get(String(supportingId)) as MemoryItemDocument;
    const trace = (await t.stores.eventStore.readStream(streams.recallTrace(body.memory_recall_trace_id)))[0];
    const traceResults = recallResults(trace.data as RecallTraceRecorded['data']);
    const resultOf = (itemId: number) => traceResults.find((r) => r.memory_item_id === itemId);
    const { conversation_id, events } = await tenant.thread('thread-shape');
    const assistant = events.find((e) => e.type === 'AssistantMessageRecorded');
    const corpus = await t.stores.readStore.get<MemoryCorpusDocument>(
      MEMORY_CORPUS,
      String(tenant.organization_id),
    );
    const draftCall = model.requests.filter((r) => r.role === 'draft').at(-1);
    const reviewCall = model.requests.filter((r) => r.role === 'review').at(-1);
    expect(reviewCall?.body.messages[0].content).toBe(REVIEWER_SYSTEM_PROMPT);
    const stored = (await tenant.requestEvents('shape')).find((e) => e.type === 'ReplyCompleted');
    const receipt = stored?.data.receipt as {
      agent_run_id: number;
      review_ledger: Array<{ review_input_sha256: string }>;
    };

    const rank = (itemId: number) => traceResults.findIndex((r) => r.memory_item_id === itemId);
    const byRank = <T extends { memory_item_id: number }>(list: T[]): T[] =>
      [...list].sort((x, y) => rank(x.memory_item_id) - rank(y.memory_item_id));
    const reference = (doc: MemoryItemDocument, role: string, score: number, uri: string) => {
      const result = resultOf(doc.memory_item_id);
      return {
        reference_id: referenceId(doc.memory_item_id, doc.revision, result?.memory_chunk_ids ?? []),
        memory_item_id: doc.memory_item_id,
        memory_source_id: doc.memory_source_id,
        memory_chunk_ids: result?.memory_chunk_ids,
        title: doc.title,
        source_uri: uri,
        source_date: doc.source_date ?? doc.revision_date,
        revision_date: doc.revision_date,
        visibility: 'organization_internal',
        audience: 'customer_safe',
        authority: { level: doc.authority_level, score, role },
        excerpt: expect.stringContaining(itemContent(doc).slice(4, 30)),
        relevance: { score: result?.score, method: result?.method },
        freshness: {
          status: 'current',
          effective_at: doc.effective_at ?? doc.source_date ?? doc.revision_date,
          expires_at: null,
        },
        limitations: [],
        conflicts: [],
        trace_verified: true,
        grounding_eligible: true,
      };
    };
    expect(body).toEqual({
      ok: true,
      reply_id: expect.any(Number),
      conversation_id,
      message_id: assistant?.data.message_id,
      agent_run_id: receipt.agent_run_id,
      external_thread_id: 'thread-shape',
      external_message_id: 'msg-shape-1',
      suggested_response: {
        text: 'The clinic is open Monday to Friday, 8:00 to 18:00. The clinic has free parking on Elm Street.',
      },
      // References and links come in the order the recall search ranked the items (the trace's order).
      references: byRank([
        reference(hours, 'authoritative', 1, 'https://clinic.example.com/faq'),
        reference(parking, 'supporting', 0.6, 'https://clinic.example.com/parking#elm'),
      ]),
      source_links: byRank([
        {
          memory_item_id: hours.memory_item_id,
          label: 'Opening hours',
          url: 'https://clinic.example.com/faq',
        },
        {
          memory_item_id: parking.memory_item_id,
          label: 'Clinic parking',
          url: 'https://clinic.example.com/parking',
        },
      ]).map(({ label, url }) => ({ label, url })),
      source_count: 2,
      contract_version: '2026-07-17.2',
      memory_recall_trace_id: trace.data.trace_id,
      answer_mode: 'facts',
      answer_intent: 'answer_business_question',
      generated_by_ai: true,
      grounding: {
        status: 'grounded',
        reason: null,
        trace_id: trace.data.trace_id,
        evidence_as_of: expect.stringMatching(ISO),
        corpus_revision: corpus?.corpus_revision,
        index_revision: trace.data.index_revision,
        authoritative_reference_count: 1,
        supporting_reference_count: 1,
        inferences: ['the caller wants to visit'],
        uncertainties: [],
        gaps: ['holiday hours'],
        idempotent_replay: false,
        generated_at: expect.stringMatching(ISO),
        semantic_sufficiency: {
          sufficient: true,
          answers_as_asked: true,
          all_claims_supported: true,
          reviewer_model: 'test-reviewer',
          review_input_sha256: receipt.review_ledger[0].review_input_sha256,
          reason: 'every claim is stated by the cited evidence',
        },
      },
      usage: {
        model: 'test-composer',
        input_tokens: expect.any(Number),
        output_tokens: expect.any(Number),
        total_tokens: expect.any(Number),
      },
    });
    // What the generic matchers stood for.
    expect(assistant?.data.text).toBe(body.suggested_response.text);
    expect(trace.data).toMatchObject({
      organization_id: tenant.organization_id,
      connector_id: tenant.connector_id,
    });
    expect(Number.isInteger(body.agent_run_id) && body.agent_run_id > 0).toBe(true);
    const { evidence_as_of, generated_at } = body.grounding;
    expect(Date.parse(evidence_as_of)).toBeGreaterThanOrEqual(started - 1000);
    expect(Date.parse(generated_at)).toBeGreaterThanOrEqual(Date.parse(evidence_as_of));
    expect(Date.parse(generated_at)).toBeLessThanOrEqual(Date.now());
    const u = body.usage;
    expect(u.total_tokens).toBe(u.input_tokens + u.output_tokens);
    expect(u.input_tokens).toBe(
      [draftCall, reviewCall].reduce((n, call) => n + Math.ceil(JSON.stringify(call?.body).length / 4), 0),
    );
    // The reviewer saw the assembled answer and exactly the two claims; the composer's free answer went nowhere.
    expect(reviewCall?.input).toMatchObject({ answer: body.suggested_response.text });
    expect(JSON.stringify(body)).not.toContain('ignored: the answer is the claims');
  });

  it('a second reply has its own agent run, message and trace', async () => {
    const a = await tenant.request(tenant.body('shape-a'));
    const b = await tenant.request(tenant.body('shape-b'));
    expect(a.body.ok && b.body.ok).toBe(true);
    for (const field of ['reply_id', 'message_id', 'agent_run_id', 'memory_recall_trace_id'])
      expect(a.body[field]).not.toBe(b.body[field]);
  });
});
