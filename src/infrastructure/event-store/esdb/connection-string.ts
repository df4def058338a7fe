/**
 * EVENTSTORE_URL schemes. KurrentDB's client (@kurrent/kurrentdb-client) reads `kurrentdb://` (and its aliases
 * `kurrent://`, `kdb://`, each with a `+discover` form for DNS discovery); it still reads the EventStoreDB-era
 * `esdb://` but prints a deprecation warning to the console, outside the JSON log. Cairn accepts every form and
 * hands the client the current one.
 */
export const EVENTSTORE_URL_PROTOCOLS = [
  'kurrentdb:',
  'kurrentdb+discover:',
  'kurrent:',
  'kurrent+discover:',
  'kdb:',
  'kdb+discover:',
  'esdb:',
  'esdb+discover:',
] as const;

/** The connection string as the client wants it: `esdb://` / `esdb+discover://` become `kurrentdb…://`. */
export function toKurrentConnectionString(url: string): string {
  return url.replace(/^esdb(\+discover)?:\/\//i, (_match, discover: string | undefined) =>
    discover ? 'kurrentdb+discover://' : 'kurrentdb://',
  );
}
