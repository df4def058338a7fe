'use strict';
/**
 * A child process for the SQLite ReadStore multi-process tests. Uses the COMPILED adapter (dist/; run
 * `npm run build` first). Prints one JSON result on stdout.
 *
 *   node read-store-child.js reserve DB SEQUENCE START_AT ITERATIONS   → [[first, count], ...]
 *   node read-store-child.js lease   DB LEASE OWNER START_AT DURATION_MS → {acquisitions, violations}
 *   node read-store-child.js grab    DB LEASE OWNER TTL_MS              → {acquired} (exits holding the lease)
 *
 * The lease mode proves mutual exclusion with a witness table (created by the test): while holding the
 * lease, a child inserts its row and counts the rows; two holders at once would see two rows.
 */
const path = require('node:path');

const dist = path.join(__dirname, '..', '..', 'dist', 'infrastructure');
const { openSqlite } = require(path.join(dist, 'sqlite', 'sqlite-connection.js'));
const { SqliteReadStore } = require(path.join(dist, 'read-store', 'sqlite', 'sqlite-read-store.js'));

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const waitUntil = (epochMs) => sleep(Math.max(0, epochMs - Date.now()));

async function reserve(store, sequence, startAt, iterations) {
  await waitUntil(startAt);
  const out = [];
  for (let i = 0; i < iterations; i++) {
    const count = 1 + (i % 3);
    out.push([await store.reserveIds(sequence, count), count]);
  }
  return out;
}

async function lease(db, store, name, owner, startAt, durationMs) {
  const enter = db.prepare('INSERT INTO lease_witness (owner) VALUES (?)');
  const holders = db.prepare('SELECT COUNT(*) AS n FROM lease_witness');
  const leave = db.prepare('DELETE FROM lease_witness WHERE owner = ?');
  await waitUntil(startAt);
  let acquisitions = 0;
  let violations = 0;
  const deadline = Date.now() + durationMs;
  while (Date.now() < deadline) {
    if (await store.acquireLease(name, owner, 5_000)) {
      acquisitions++;
      enter.run(owner);
      if (holders.get().n !== 1) violations++;
      await sleep(2 + Math.floor(Math.random() * 5));
      if (!(await store.acquireLease(name, owner, 5_000))) violations++; // renewal must succeed
      if (holders.get().n !== 1) violations++;
      leave.run(owner);
      await store.releaseLease(name, owner);
    }
    await sleep(Math.floor(Math.random() * 3));
  }
  return { acquisitions, violations };
}

async function main() {
  const [mode, dbPath, name, ...rest] = process.argv.slice(2);
  const db = openSqlite({ path: dbPath });
  const store = new SqliteReadStore(db);
  try {
    if (mode === 'reserve') return await reserve(store, name, Number(rest[0]), Number(rest[1]));
    if (mode === 'lease') return await lease(db, store, name, rest[0], Number(rest[1]), Number(rest[2]));
    if (mode === 'grab') return { acquired: await store.acquireLease(name, rest[0], Number(rest[1])) };
    throw new Error(`unknown mode ${mode}`);
  } finally {
    db.close();
  }
}

main().then(
  (result) => process.stdout.write(JSON.stringify(result)),
  (error) => {
    process.stderr.write(`${error && error.stack ? error.stack : String(error)}\n`);
    process.exitCode = 1;
  },
);
