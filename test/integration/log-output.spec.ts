/**
 * The server's JSON log lines on standard output are written in blocks (docs/operations.md#logs): a line still
 * reaches the output soon after it is logged, and a graceful stop loses none of the shutdown's own lines.
 */
import { startServerProcess, stopAllServers } from '../support/server-process';
import { makeTempDir } from '../support/temp-dir';

describe('log output', () => {
  const temp = makeTempDir('cairn-log-output-');
  afterAll(async () => {
    await stopAllServers();
    temp.cleanup();
  });

  it('writes a request line within a second, and the shutdown lines on a graceful stop', async () => {
    const server = await startServerProcess({ CAIRN_DATA_DIR: temp.dir, CAIRN_HTTP_WORKERS: '1' });
    await server.waitForLines(/listening on/);
    const res = await fetch(`${server.baseUrl}/health`, { headers: { 'x-request-id': 'log-output-1' } });
    expect(res.status).toBe(200);
    const [line] = await server.waitForLines(/"request_id":"log-output-1"/, 1, 1000);
    expect(JSON.parse(line)).toMatchObject({ level: 'info', msg: 'request', route: '/health', status: 200 });
    await server.stop();
    expect(await server.exited).toEqual({ code: null, signal: 'SIGTERM' });
    const last = server.output().trim().split('\n').at(-1)!;
    expect(JSON.parse(last)).toMatchObject({ context: 'core', msg: 'stores closed' });
  });
});
