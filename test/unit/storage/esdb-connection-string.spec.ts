import { loadConfig } from '../../../src/config/config';
import { toKurrentConnectionString } from '../../../src/infrastructure/event-store/esdb/connection-string';
import { EsdbEventStore } from '../../../src/infrastructure/event-store/esdb/esdb-event-store';

/** EVENTSTORE_URL: KurrentDB's `kurrentdb://` form and the EventStoreDB-era `esdb://` form both open the store. */
describe('EVENTSTORE_URL schemes', () => {
  it.each([
    'kurrentdb://localhost:2113?tls=false',
    'kurrentdb+discover://cluster.example:2113',
    'kurrent://localhost:2113?tls=false',
    'kdb://localhost:2113?tls=false',
    'esdb://localhost:2113?tls=false',
    'esdb+discover://cluster.example:2113',
  ])('config accepts %s', (url) => {
    expect(loadConfig({ EVENTSTORE_URL: url }).eventStoreUrl).toBe(url);
  });

  it('config refuses another scheme, naming the accepted ones', () => {
    expect(() => loadConfig({ EVENTSTORE_URL: 'http://localhost:2113' })).toThrow(
      /EVENTSTORE_URL must use kurrentdb: or .*esdb: .*\(got "http:"\)/,
    );
  });

  it('esdb:// is handed to the client as kurrentdb://; other forms unchanged', () => {
    expect(toKurrentConnectionString('esdb://a:2113?tls=false')).toBe('kurrentdb://a:2113?tls=false');
    expect(toKurrentConnectionString('esdb+discover://a:2113')).toBe('kurrentdb+discover://a:2113');
    expect(toKurrentConnectionString('kurrentdb://a:2113')).toBe('kurrentdb://a:2113');
    expect(toKurrentConnectionString('kdb+discover://a:2113')).toBe('kdb+discover://a:2113');
  });

  it.each(['kurrentdb://127.0.0.1:1?tls=false', 'esdb://127.0.0.1:1?tls=false'])(
    'the real client takes %s without a console deprecation warning (it connects lazily)',
    async (url) => {
      const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
      try {
        const store = new EsdbEventStore(url);
        await store.close();
        expect(warn).not.toHaveBeenCalled();
      } finally {
        warn.mockRestore();
      }
    },
  );
});
