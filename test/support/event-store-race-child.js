'use strict';
/**
 * A separate process appending to a SQLite event store (the compiled adapter in dist/, built by `npm run build`).
 * Driven over IPC by test/contract/event-store.sqlite.spec.ts:
 *   {id, cmd: 'race', stream, round}  append one event expecting revision round-1 (no_stream for round 0)
 *   {id, cmd: 'append', stream, count} append `count` single-event appends with 'any'
 *   {cmd: 'exit'}                     close and exit
 * Replies {id, ok: true} | {id, ok: false, actual} (lost the race) | {id, error}.
 */
const path = require('node:path');

const dist = path.join(__dirname, '..', '..', 'dist', 'infrastructure');
const { openSqlite } = require(path.join(dist, 'sqlite', 'sqlite-connection.js'));
const { SqliteEventStore } = require(path.join(dist, 'event-store', 'sqlite', 'sqlite-event-store.js'));

const [dbPath, name] = process.argv.slice(2);
const db = openSqlite({ path: dbPath });
const store = new SqliteEventStore(db);

function event(type, data) {
  return {
    type,
    data: { ...data, child: name, pid: process.pid },
    metadata: {
      organization_id: null,
      correlation_id: `race-${name}`,
      causation_id: null,
      actor: `system:${name}`,
      occurred_at: new Date().toISOString(),
      schema_version: 1,
    },
  };
}

async function handle(message) {
  if (message.cmd === 'race') {
    const expected = message.round === 0 ? 'no_stream' : message.round - 1;
    try {
      await store.append(message.stream, [event('RaceRound', { round: message.round })], expected);
      return { ok: true };
    } catch (error) {
      if (error && error.name === 'WrongExpectedVersionError') return { ok: false, actual: error.actual };
      throw error;
    }
  }
  if (message.cmd === 'append') {
    for (let n = 0; n < message.count; n++)
      await store.append(message.stream, [event('FromChild', { n })], 'any');
    return { ok: true };
  }
  throw new Error(`unknown command ${message.cmd}`);
}

process.on('message', (message) => {
  if (message.cmd === 'exit') {
    store.close().then(() => {
      db.close();
      process.disconnect();
    });
    return;
  }
  handle(message).then(
    (reply) => process.send({ id: message.id, ...reply }),
    (error) => process.send({ id: message.id, error: String((error && error.stack) || error) }),
  );
});
// If the parent dies, do not linger.
process.on('disconnect', () => process.exit(0));
process.send({ ready: true });
