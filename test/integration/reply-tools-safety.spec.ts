import { MAX_TOOL_RESPONSE_BYTES } from '../../src/tools/tool-client';
import {
  expectedNonAnswer as expected,
  storedFailureReplay,
  type ReplyTenant,
} from '../support/reply-tenant';
import {
  citeToolDraft,
  draftRequests,
  expectStoredFailure,
  ORDER_TOOL,
  toolRunStream,
} from '../support/tool-fixtures';
import { A1, askA1, startToolHarness, type ToolHarness } from '../support/tool-harness';
import { toolReply, type ToolAnswer } from '../support/tool-server';

/**
 * external_tool_output_unsafe through the real HTTP path (spec §4.6 rule 10): a tool result that breaks the
 * output contract never reaches the model, the reply, the response or any stored event. Each case asserts the
 * HTTP status and §2.8 body, the stored ReplyFailed, a ToolRunFailed that records the reason and path (never the
 * value), that no later model call happened, and that the bad value appears nowhere: not in any model request,
 * the response, or any event written since the request began.
 */
const OVERSIZE = `OVERSIZE-${'z'.repeat(40)}`;
const AWS_KEY = 'AKIAQ7MZ3XK2PL5RWNTY';
const GITHUB_TOKEN = 'ghp_R8x2Kq9LmZ4vT7yW1nB3cD5fG6hJ0pQsUaEi';

interface UnsafeCase {
  why: string;
  answer: ToolAnswer;
  /** What ToolRunFailed records. */
  reason: string;
  path: string | null;
  /** The value that must never travel on. */
  bad: string;
}

const CASES: UnsafeCase[] = [
  {
    why: 'a cloud-metadata link in a linkable field',
    answer: toolReply.json({ status: 'shipped', tracking_url: 'http://169.254.169.254/latest/meta-data/' }),
    reason: 'unsafe_link',
    path: 'output.tracking_url',
    bad: '169.254.169.254',
  },
  {
    why: 'a private-network link in a linkable field',
    answer: toolReply.json({ status: 'shipped', tracking_url: 'http://10.0.0.5/admin' }),
    reason: 'unsafe_link',
    path: 'output.tracking_url',
    bad: '10.0.0.5',
  },
  {
    why: 'a public link on a host that is not allowed',
    answer: toolReply.json({ status: 'shipped', tracking_url: 'https://evil.example.net/A1' }),
    reason: 'link_host_not_allowed',
    path: 'output.tracking_url',
    bad: 'evil.example.net',
  },
  {
    why: 'a URL inside the plain text of a non-linkable field',
    answer: toolReply.json({ status: 'shipped', note: 'Details at https://track.example.com/x9q7 today' }),
    reason: 'absolute_uri',
    path: 'output.note',
    bad: 'track.example.com/x9q7',
  },
  {
    why: 'a bare link on an allowed host, but in a non-linkable field',
    answer: toolReply.json({ status: 'shipped', note: 'https://track.example.com/k3m8' }),
    reason: 'absolute_uri',
    path: 'output.note',
    bad: 'track.example.com/k3m8',
  },
  {
    why: 'an AWS access key in a string',
    answer: toolReply.json({ status: 'shipped', note: `Courier key ${AWS_KEY} in use` }),
    reason: 'credential',
    path: 'output.note',
    bad: AWS_KEY,
  },
  {
    why: 'a GitHub token in a string',
    answer: toolReply.json({ status: 'shipped', note: GITHUB_TOKEN }),
    reason: 'credential',
    path: 'output.note',
    bad: GITHUB_TOKEN,
  },
  {
    why: 'an undeclared extra field',
    answer: toolReply.json({ status: 'shipped', internal_cost: 'EXTRA-FIELD-7731' }),
    reason: 'unexpected_field',
    path: 'output.internal_cost',
    bad: 'EXTRA-FIELD-7731',
  },
  {
    why: 'a string longer than its maxLength',
    answer: toolReply.json({ status: OVERSIZE }),
    reason: 'too_long',
    path: 'output.status',
    bad: OVERSIZE,
  },
  {
    why: 'a response that is not JSON',
    answer: toolReply.text('status: PLAINTEXT-4242 shipped'),
    reason: 'the tool response is not JSON',
    path: null,
    bad: 'PLAINTEXT-4242',
  },
  {
    why: 'a response over the byte bound',
    answer: toolReply.oversize(MAX_TOOL_RESPONSE_BYTES + 64 * 1024),
    reason: `the tool response exceeds ${MAX_TOOL_RESPONSE_BYTES} bytes`,
    path: null,
    bad: 'x'.repeat(1000),
  },
];

describe('unsafe assistant tool output over HTTP (spec §4.6 rule 10)', () => {
  let h: ToolHarness;
  let tenant: ReplyTenant;

  beforeAll(async () => {
    h = await startToolHarness();
    tenant = await h.toolTenant('Tools unsafe', '/unsafe');
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  it.each(CASES.map((c, i) => [c.why, i] as const))(
    'external_tool_output_unsafe for %s: the value never reaches the model, the reply or the store',
    async (_why, i) => {
      const { answer, reason, path, bad } = CASES[i];
      const { model, tools, t } = h;
      const key = `unsafe-${i}`;
      tools.queue('/unsafe', answer);
      // Were the output accepted, the next draft would cite it and the reply would carry it.
      model.script.draft(askA1(), citeToolDraft);
      const from = model.requests.length;
      const head = await t.stores.eventStore.headPosition();
      const res = await tenant.request(tenant.body(key));
      expect(res.status).toBe(200);
      expect(res.body).toEqual(expected('external_tool_output_unsafe'));
      await expectStoredFailure(tenant, key, res.body);
      expect(tools.calls.map((c) => c.body)).toEqual([A1]);

      const run = await t.stores.eventStore.readStream(
        toolRunStream(tenant, res.body.reply_id, ORDER_TOOL, A1),
      );
      expect(run.map((e) => e.type)).toEqual(['ToolRunStarted', 'ToolRunFailed']);
      expect(run[1].data).toMatchObject({ failure: 'output_unsafe', reason, path });

      // The composer was not called again, the reviewer not at all.
      expect(draftRequests(model, from)).toHaveLength(1);
      expect(model.requests.slice(from).filter((r) => r.role === 'review')).toHaveLength(0);
      const seen = [
        ...model.requests.map((r) => JSON.stringify(r.body)),
        JSON.stringify(res.body),
        ...(await t.stores.eventStore.readAll({ after_position: head })).map((e) => JSON.stringify(e)),
      ];
      expect(seen.filter((text) => text.includes(bad))).toEqual([]);

      // Final: the repeat gets the stored result; neither the model nor the tool is called again.
      const calls = model.calls.chat;
      const again = await tenant.request(tenant.body(key));
      expect(again.status).toBe(200);
      expect(again.body).toEqual(storedFailureReplay(res.body));
      expect(model.calls.chat).toBe(calls);
      expect(tools.count()).toBe(1);
    },
  );
});
