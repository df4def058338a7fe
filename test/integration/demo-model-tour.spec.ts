import { join } from 'node:path';
import { DEMO_MODEL_NAME } from '../../src/ai/demo-model';
import { MAIN_JS, startServerProcess, stopAllServers, type ServerProcess } from '../support/server-process';
import { makeTempDir } from '../support/temp-dir';

const B = '/app/api/tool-connectors/v1';
/** The environment of a machine with no model configured. */
const NO_MODEL = {
  OPENAI_BASE_URL: '',
  CAIRN_COMPOSER_MODEL: '',
  CAIRN_REVIEWER_MODEL: '',
  CAIRN_DEMO_MODEL: '',
};

describe('the README tour against `npm start` (--demo --demo-model), on a machine with no model', () => {
  jest.setTimeout(120_000);
  const temp = makeTempDir();
  const data = join(temp.dir, 'data');
  afterAll(async () => {
    await stopAllServers();
    temp.cleanup();
  });

  const post = async (server: ServerProcess, token: string, path: string, body: unknown) => {
    const res = await fetch(`${server.baseUrl}${B}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tour reads arbitrary JSON
    return { status: res.status, body: (await res.json()) as any };
  };
  const ask = (server: ServerProcess, token: string, messageId: string) =>
    post(server, token, '/assistant/replies', {
      external_thread_id: 't-1',
      external_message_id: messageId,
      payload: { text: 'Are you open on Saturday?' },
    });

  it('a reply first asked with no model replays its failure with how to get a fresh one; then search, reply, feedback', async () => {
    // First start without the demo model: the tour's m-1 gets the honest non-answer.
    const bare = await startServerProcess(
      { ...NO_MODEL, CAIRN_DATA_DIR: data },
      { args: [MAIN_JS, '--demo'] },
    );
    const [tokenLine] = await bare.waitForLines(/^\s+cairn_[A-Za-z0-9_-]{43}$/m, 1, 30_000);
    const token = tokenLine.trim();
    const first = await ask(bare, token, 'm-1');
    expect(first.body).toMatchObject({
      ok: false,
      system_status: { code: 'assistant_runtime_unavailable', retryable: false },
    });
    expect(first.body.system_status.message).toBeUndefined();
    await bare.stop();

    const server = await startServerProcess(
      { ...NO_MODEL, CAIRN_DATA_DIR: data },
      { args: [MAIN_JS, '--demo', '--demo-model'] },
    );
    const [warning] = await server.waitForLines(/"code":"demo_model"/, 1, 10_000);
    expect(JSON.parse(warning)).toMatchObject({ level: 'warn', model: DEMO_MODEL_NAME });
    expect(JSON.parse(warning).msg).toMatch(/^DEMO MODEL: replies are not written by a language model/);

    // The same identity again: the stored failure, marked a replay, saying how to get a fresh reply.
    const replayed = await ask(server, token, 'm-1');
    expect(replayed.body).toMatchObject({
      ok: false,
      reply_id: first.body.reply_id,
      system_status: {
        code: 'assistant_runtime_unavailable',
        retryable: false,
        idempotent_replay: true,
        message: expect.stringContaining('new external_message_id'),
      },
    });

    // The tour: search, a reply (a new message id), feedback on it.
    const search = await post(server, token, '/memory/search', {
      query: 'Saturday opening hours',
      include_context_package: true,
    });
    expect(search.status).toBe(200);
    expect(search.body.results.length).toBeGreaterThan(0);
    const reply = await ask(server, token, 'm-2');
    expect(reply.body).toMatchObject({ ok: true, usage: { model: DEMO_MODEL_NAME } });
    expect(reply.body.grounding.semantic_sufficiency.reviewer_model).toBe(DEMO_MODEL_NAME);
    // It quotes its evidence: the answer is a sentence of a cited reference, the one about Saturday.
    const text: string = reply.body.suggested_response.text;
    expect(text).toMatch(/Saturday from 9:00 to 13:00/);
    expect(reply.body.references.some((r: { excerpt: string }) => r.excerpt.includes(text))).toBe(true);
    const feedback = await post(server, token, `/assistant/replies/${reply.body.message_id}/feedback`, {
      outcome: 'accepted',
      rating: 'up',
      external_feedback_id: 'f-1',
    });
    expect(feedback).toMatchObject({ status: 200, body: { ok: true, outcome: 'accepted', rating: 'up' } });
  });

  it('--demo-model with a model configured does not start', async () => {
    await expect(
      startServerProcess(
        { ...NO_MODEL, CAIRN_DATA_DIR: join(temp.dir, 'other'), CAIRN_COMPOSER_MODEL: 'gpt-x' },
        { args: [MAIN_JS, '--demo-model'] },
      ),
    ).rejects.toThrow(/cairn failed to start: invalid_configuration: .*unset CAIRN_COMPOSER_MODEL/);
  });
});
