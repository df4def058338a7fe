import { loadConfig } from '../../../src/config/config';

describe('CAIRN_TRACE_RETENTION_DAYS', () => {
  it('defaults to 30 days; 0 keeps every trace; up to 36,500', () => {
    expect(loadConfig({}).traceRetentionDays).toBe(30);
    expect(loadConfig({ CAIRN_TRACE_RETENTION_DAYS: '0' }).traceRetentionDays).toBe(0);
    expect(loadConfig({ CAIRN_TRACE_RETENTION_DAYS: '365' }).traceRetentionDays).toBe(365);
    expect(loadConfig({ CAIRN_TRACE_RETENTION_DAYS: '36500' }).traceRetentionDays).toBe(36_500);
  });

  it.each(['-1', '1.5', 'week', '36501'])('refuses %s at start, naming the variable', (raw) => {
    expect(() => loadConfig({ CAIRN_TRACE_RETENTION_DAYS: raw })).toThrow(
      expect.objectContaining({
        code: 'invalid_configuration',
        details: [expect.objectContaining({ field: 'CAIRN_TRACE_RETENTION_DAYS' })],
      }),
    );
  });
});
