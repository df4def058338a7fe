import { ingest } from '../support/memory-fixtures';
import { startModelApp } from '../support/reply-fixtures';
import { cairn } from '../support/cli';
import { createReplyTenant, expectedNonAnswer, type ReplyTenant } from '../support/reply-tenant';
import { http, type TestApp } from '../support/test-app';

/**
 * `tool-connectors:set-grounding-policy` (spec §4.6 operator command) run as the real CLI process against the data
 * directory of a live server: the dry run changes nothing; the real run changes the connector's policy only, keeps
 * every recorded revision, trace, reply and feedback, and the live server applies it to the next request.
 */
describe('tool-connectors:set-grounding-policy with replies', () => {
  jest.setTimeout(120_000);
  let t: TestApp;
  let close: () => Promise<void>;
  let tenant: ReplyTenant;
  const supporting = { payload: { text: 'Is there a pharmacy nearby?' } };

  beforeAll(async () => {
    ({ t, close } = await startModelApp());
    tenant = await createReplyTenant(t, 'Policy');
    // Supporting evidence only: a `reference` item is never authoritative.
    await ingest(t.commands, tenant.organization_id, 'Neighbourhood', 'A pharmacy is two doors down.', {
      authority_level: 'reference',
    });
  });
  afterAll(() => close());

  /** Every event in the store, as (stream, revision, type, id): what must survive the policy change untouched. */
  async function allEvents(): Promise<string[]> {
    const events = await t.stores.eventStore.readAll({ after_position: 0, max_count: 100_000 });
    return events.map((e) => `${e.stream}@${e.revision}:${e.type}:${e.event_id}`);
  }

  it('dry run previews; the real run changes policy only; replies then follow the standard policy', async () => {
    const strictReply = await tenant.request(tenant.body('before'));
    expect(strictReply.body).toMatchObject({ ok: true, grounding: { status: 'grounded' } });
    const feedback = await http(
      t.baseUrl,
      'POST',
      `/app/api/tool-connectors/v1/assistant/replies/${strictReply.body.message_id}/feedback`,
      { token: tenant.token, body: { rating: 'up', external_feedback_id: 'fb-policy' } },
    );
    expect(feedback.status).toBe(200);
    const refused = await tenant.request(tenant.body('supporting-strict', supporting));
    expect(refused.body).toEqual(expectedNonAnswer('authoritative_evidence_insufficient', false));

    const org = String(tenant.organization_id);
    const connector = String(tenant.connector_id);
    const before = await allEvents();
    const dry = await cairn(
      t.dataDir,
      'tool-connectors:set-grounding-policy',
      org,
      connector,
      '--policy=standard',
      '--dry-run',
    );
    expect(dry.code).toBe(0);
    expect(dry.json).toMatchObject({
      dry_run: true,
      current_policy: 'strict',
      requested_policy: 'standard',
      would_change: true,
    });
    expect(await allEvents()).toEqual(before);

    const real = await cairn(
      t.dataDir,
      'tool-connectors:set-grounding-policy',
      org,
      connector,
      '--policy=standard',
    );
    expect(real.code).toBe(0);
    expect(real.json).toMatchObject({ dry_run: false, grounding_policy: 'standard', changed: true });
    const after = await allEvents();
    expect(after.slice(0, before.length)).toEqual(before); // revisions, traces, replies, feedback: untouched
    expect(after.slice(before.length)).toEqual([
      expect.stringMatching(new RegExp(`^connector-${connector}@\\d+:ConnectorGroundingPolicySet:`)),
    ]);

    // The live server applies the new policy at once: supporting evidence may now back a reviewed reply.
    const standard = await tenant.request(tenant.body('supporting-standard', supporting));
    expect(standard.body).toMatchObject({
      ok: true,
      grounding: { status: 'reviewed', authoritative_reference_count: 0, supporting_reference_count: 1 },
    });
    // The reply completed under the strict policy still replays.
    const replay = await tenant.request(tenant.body('before'));
    expect(replay.body).toMatchObject({
      ok: true,
      grounding: { idempotent_replay: true, status: 'grounded' },
    });

    // Back to strict: a reply grounded only under the standard policy is no longer replayed.
    const back = await cairn(
      t.dataDir,
      'tool-connectors:set-grounding-policy',
      org,
      connector,
      '--policy=strict',
    );
    expect(back.json).toMatchObject({ grounding_policy: 'strict', changed: true });
    const again = await tenant.request(tenant.body('supporting-standard', supporting));
    expect(again.body).toEqual(expectedNonAnswer('completed_reply_no_longer_available'));
  });
});
