import { connect } from 'node:net';
import { loadConfig } from '../../src/config/config';
import { ingest } from '../support/memory-fixtures';
import { idleConnections } from '../support/idle-connections';
import { reply } from '../support/model-server';
import { postReply, replyBody, replyConnector, startReplyHarness } from '../support/reply-fixtures';
import { startTestApp, type TestApp } from '../support/test-app';

const portOf = (t: TestApp): number => Number(new URL(t.baseUrl).port);

/** Slow and idle clients (docs/hardening.md#slow-and-idle-connections). */
describe('HTTP server timeouts', () => {
  it('closes 200 connections that never finish their headers within the headers timeout', async () => {
    const headersMs = 1000;
    const t = await startTestApp({
      CAIRN_HTTP_HEADERS_TIMEOUT_MS: String(headersMs),
      CAIRN_HTTP_REQUEST_TIMEOUT_MS: '5000',
    });
    try {
      // Tolerance: one connection check (a quarter of the timeout) and a loaded machine.
      const { closedAfterMs, got408 } = await idleConnections(portOf(t), 200, headersMs + 4000);
      const open = closedAfterMs.filter((ms) => ms === null).length;
      expect(open).toBe(0);
      const times = closedAfterMs as number[];
      // Not closed early, by something else than the deadline.
      expect(Math.min(...times)).toBeGreaterThanOrEqual(headersMs - 50);
      expect(Math.max(...times)).toBeLessThan(headersMs + 4000);
      expect(got408).toBe(200);
      const health = await fetch(`${t.baseUrl}/health`);
      expect(health.status).toBe(200);
    } finally {
      await t.close();
    }
  }, 30_000);

  it('closes a request whose body never finishes within the request timeout (408), logging no error', async () => {
    const lines: string[] = [];
    const t = await startTestApp(
      { CAIRN_HTTP_HEADERS_TIMEOUT_MS: '500', CAIRN_HTTP_REQUEST_TIMEOUT_MS: '1500' },
      undefined,
      [],
      undefined,
      { write: (line) => void lines.push(line) },
    );
    try {
      const started = Date.now();
      const answer = await new Promise<{ text: string; ms: number }>((resolve, reject) => {
        const socket = connect(portOf(t), '127.0.0.1');
        let text = '';
        socket.on('error', reject);
        socket.on('data', (data) => (text += data.toString('latin1')));
        socket.on('close', () => resolve({ text, ms: Date.now() - started }));
        // Headers complete at once (well within 500 ms), then 10 of the 100 announced body bytes.
        socket.write(
          'POST /app/api/tool-connectors/v1/memory/search HTTP/1.1\r\nHost: cairn\r\n' +
            'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"query":',
        );
        setTimeout(() => socket.destroy(), 10_000).unref();
      });
      expect(answer.text.startsWith('HTTP/1.1 408')).toBe(true);
      expect(answer.ms).toBeGreaterThanOrEqual(1450);
      expect(answer.ms).toBeLessThan(6000);
      // A client that stops sending is not a server error (it was logged as one).
      const errors = lines
        .map((line) => JSON.parse(line) as { level: string })
        .filter((l) => l.level === 'error');
      expect(errors).toEqual([]);
    } finally {
      await t.close();
    }
  }, 30_000);

  it('does not cut a reply that takes longer than the request timeout to compute', async () => {
    const h = await startReplyHarness('Slow replies', {
      CAIRN_HTTP_HEADERS_TIMEOUT_MS: '300',
      CAIRN_HTTP_REQUEST_TIMEOUT_MS: '600',
    });
    try {
      await ingest(h.t.commands, h.organizationId, 'Opening hours', 'Open Monday to Friday, 8:00 to 18:00.');
      const { token } = await replyConnector(h);
      h.model.script.draft(reply.slow(2000, reply.draft()));
      const started = Date.now();
      const res = await postReply(h, token, replyBody('slow', 'When are you open?'));
      expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
      expect(res.status).toBe(200);
      expect(res.body.ok).toBe(true);
    } finally {
      await h.close();
    }
  }, 30_000);

  it('defaults: headers 10 s, request 30 s, keep-alive 72 s; a headers timeout over the request timeout is refused', () => {
    expect(loadConfig({}).httpTimeouts).toEqual({
      headersMs: 10_000,
      requestMs: 30_000,
      keepAliveMs: 72_000,
    });
    expect(() =>
      loadConfig({ CAIRN_HTTP_HEADERS_TIMEOUT_MS: '20000', CAIRN_HTTP_REQUEST_TIMEOUT_MS: '10000' }),
    ).toThrow(/CAIRN_HTTP_HEADERS_TIMEOUT_MS \(20000\) must not exceed CAIRN_HTTP_REQUEST_TIMEOUT_MS/);
    expect(() => loadConfig({ CAIRN_HTTP_HEADERS_TIMEOUT_MS: '0' })).toThrow(/from 100 to 600000/);
  });
});
