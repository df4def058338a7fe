/**
 * Issue 20: with CAIRN_HTTP_WORKERS=2, /metrics (answered by whichever worker gets the request) reports the whole
 * server: the primary aggregates both workers' registries.
 */
import { get } from 'node:http';
import { startServerProcess, stopAllServers } from '../support/server-process';
import { makeTempDir } from '../support/temp-dir';

/** GET on a fresh connection (so consecutive requests alternate between the workers). */
function getFresh(url: string, requestId?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    get(url, { agent: false, headers: requestId ? { 'x-request-id': requestId } : {} }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    }).on('error', reject);
  });
}

function healthCount(text: string): number {
  return text
    .split('\n')
    .filter((line) => line.startsWith('cairn_http_requests_total{') && line.includes('route="/health"'))
    .reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0);
}

describe('/metrics across HTTP worker processes (issue 20)', () => {
  const temp = makeTempDir('cairn-metrics-');
  afterAll(async () => {
    await stopAllServers();
    temp.cleanup();
  });

  it('sums the requests every worker served', async () => {
    const server = await startServerProcess({
      CAIRN_DATA_DIR: temp.dir,
      CAIRN_HTTP_WORKERS: '2',
      CAIRN_METRICS: 'on',
    });
    const pids = () => [...server.output().matchAll(/listening on .*pid (\d+)\)/g)].map((m) => Number(m[1]));
    const deadline = Date.now() + 20_000;
    while (pids().length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    expect(pids()).toHaveLength(2);
    const before = healthCount((await getFresh(`${server.baseUrl}/metrics`)).text);
    for (let i = 0; i < 20; i++) {
      expect((await getFresh(`${server.baseUrl}/health`, `cluster-${i}`)).status).toBe(200);
    }
    // Both workers served /health (their access lines name their pids) …
    const served = new Set(
      (await server.waitForLines(/"request_id":"cluster-\d+"/, 20)).map(
        (line) => (JSON.parse(line) as { pid: number }).pid,
      ),
    );
    expect([...served].sort()).toEqual([...pids()].sort());
    // … and every scrape, whichever worker answers it, counts all 20.
    for (let i = 0; i < 4; i++) {
      const metrics = await getFresh(`${server.baseUrl}/metrics`);
      expect(metrics.status).toBe(200);
      expect(healthCount(metrics.text) - before).toBe(20);
    }
    await server.stop();
  });
});
