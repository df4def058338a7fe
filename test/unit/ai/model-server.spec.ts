import { ReplyComposer } from '../../../src/ai/reply-composer';
import type { DraftInput } from '../../../src/ai/reply-model-contract';
import { failure, gatewayFor } from '../../support/model-calls';
import { reply, startModelServer } from '../../support/model-server';

const DRAFT: DraftInput = {
  task: 'draft_reply',
  question: 'When does the physician see patients?',
  thread: { subject: null, from: null, to: null, channel: 'email', sent_at: null, history: [] },
  evidence: [],
  tool_results: [],
};

describe('model test server', () => {
  it('close() ends hanging calls so nothing keeps jest alive; embeddings still work', async () => {
    const server = await startModelServer();
    const gateway = gatewayFor(server.url, 20_000);
    expect((await gateway.embed('e', ['doctor', 'physician']))[0]).toHaveLength(64);
    server.failEmbeddings(1, 503);
    expect((await failure(gateway.embed('e', ['x']))).kind).toBe('server_error');
    server.script.draft(reply.hang());
    const pending = failure(new ReplyComposer(gateway, 'm').compose(DRAFT));
    while (server.calls.chat === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    const started = Date.now();
    await server.close();
    expect((await pending).kind).toBe('unreachable');
    expect(Date.now() - started).toBeLessThan(1000);
    expect(server.calls).toEqual({ embeddings: 2, chat: 1 });
  });
});
