import { OUTCOME_POLICY } from '../../src/commands/replies/outcome-policy';
import { reply, startModelServer } from '../support/model-server';
import { createReplyTenant, nonAnswer, replyTenantOn, until } from '../support/reply-tenant';
import { MODEL_ENV } from '../support/reply-fixtures';
import { makeTempDir } from '../support/temp-dir';
import { startTestApp } from '../support/test-app';

const { retryable, retry_after_ms } = OUTCOME_POLICY.assistant_run_canceled;

describe('assistant_run_canceled on shutdown', () => {
  it('a run in flight when the server stops records assistant_run_canceled; after a restart the same request is answered', async () => {
    const model = await startModelServer();
    const dir = makeTempDir();
    const env = { ...MODEL_ENV, OPENAI_BASE_URL: model.url };
    try {
      const first = await startTestApp(env, dir.dir);
      const tenant = await createReplyTenant(first, 'Shutdown');
      model.script.draft(reply.hang());
      const pending = tenant.request(tenant.body('shutdown'));
      await until(() => model.requests.some((r) => r.role === 'draft'));
      await first.close();
      const res = await pending;
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        ...nonAnswer('assistant_run_canceled', retryable, retry_after_ms),
        reply_id: expect.any(Number),
      });

      const second = await startTestApp(env, dir.dir);
      try {
        const restarted = replyTenantOn(second, tenant);
        const events = await restarted.requestEvents('shutdown');
        expect(events.map((e) => e.type)).toEqual(['ReplyRequested', 'ReplyFailed']);
        expect(events[1].data).toMatchObject({
          outcome: res.body.system_status,
          assistant_message_persisted: false,
        });
        const again = await restarted.request(tenant.body('shutdown'));
        expect(again.body).toMatchObject({ ok: true, reply_id: res.body.reply_id });
      } finally {
        await second.close();
      }
    } finally {
      dir.cleanup();
      await model.close();
    }
  });
});
