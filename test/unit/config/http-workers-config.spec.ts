import { availableParallelism } from 'node:os';
import { loadConfig } from '../../../src/config/config';

describe('CAIRN_HTTP_WORKERS', () => {
  it('defaults to one process; takes 1–16 or auto (one per core, at most 16)', () => {
    expect(loadConfig({}).httpWorkers).toBe(1);
    expect(loadConfig({ CAIRN_HTTP_WORKERS: '2' }).httpWorkers).toBe(2);
    expect(loadConfig({ CAIRN_HTTP_WORKERS: '16' }).httpWorkers).toBe(16);
    expect(loadConfig({ CAIRN_HTTP_WORKERS: 'auto' }).httpWorkers).toBe(Math.min(availableParallelism(), 16));
  });

  it.each(['0', '17', '-1', '1.5', 'two', 'AUTO'])('rejects %s, naming the allowed values', (value) => {
    expect(() => loadConfig({ CAIRN_HTTP_WORKERS: value })).toThrow(
      /CAIRN_HTTP_WORKERS must be an integer from 1 to 16 \(got "[^"]+"\) or "auto"/,
    );
  });
});

describe('CAIRN_HTTP_WORKER_START_TIMEOUT_MS', () => {
  it('defaults to 60 s; takes 100 ms to 1 h', () => {
    expect(loadConfig({}).httpWorkerStartTimeoutMs).toBe(60_000);
    expect(loadConfig({ CAIRN_HTTP_WORKER_START_TIMEOUT_MS: '100' }).httpWorkerStartTimeoutMs).toBe(100);
    expect(() => loadConfig({ CAIRN_HTTP_WORKER_START_TIMEOUT_MS: '99' })).toThrow(
      /CAIRN_HTTP_WORKER_START_TIMEOUT_MS must be an integer from 100 to 3600000/,
    );
  });
});
