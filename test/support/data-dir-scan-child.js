// Scans a data directory for needles, in this child process: the raw bytes of every file (UTF-8 and UTF-16LE), then
// every value of every SQLite file (found by its header) opened read-only, as text, inflated text or base64-decoded
// text. argv: DIR -- NEEDLE...; prints JSON {raw: [{file, encoding, needle}], values: [{file, table, column, label,
// needle}]}.
//
// Why a child process: POSIX advisory locks belong to a process, and closing *any* descriptor of a file drops every
// lock the process holds on it. A test process that also hosts a Cairn server and read cairn.sqlite with
// readFileSync would silently drop the server's SQLite locks; the next CLI process to close would then believe it
// was the file's last user, checkpoint and delete the WAL and shared-memory files under the running server, whose
// reads fail from then on ("database disk image is malformed"). See https://www.sqlite.org/howtocorrupt.html §2.2.
const Database = require('better-sqlite3');
const zlib = require('node:zlib');

const { readdirSync, readFileSync, statSync } = require('node:fs');
const { join } = require('node:path');

const sep = process.argv.indexOf('--');
const [dir] = process.argv.slice(2, sep);
const needles = process.argv.slice(sep + 1);
const hits = [];
const raw = [];

function filesUnder(at) {
  const out = [];
  for (const entry of readdirSync(at)) {
    const path = join(at, entry);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path));
    else out.push(path);
  }
  return out;
}

const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');
const files = [];
for (const file of filesUnder(dir)) {
  const bytes = readFileSync(file);
  for (const needle of needles) {
    for (const encoding of ['utf8', 'utf16le']) {
      if (bytes.includes(Buffer.from(needle, encoding))) raw.push({ file, encoding, needle });
    }
  }
  if (bytes.subarray(0, SQLITE_HEADER.length).equals(SQLITE_HEADER)) files.push(file);
}

function texts(value) {
  const out = [];
  if (value === null || value === undefined) return out;
  const buf = Buffer.isBuffer(value) ? value : Buffer.from(String(value), 'utf8');
  out.push(buf.toString('utf8'));
  for (const inflate of [zlib.inflateRawSync, zlib.inflateSync, zlib.gunzipSync, zlib.brotliDecompressSync]) {
    for (const start of [0, 1, 2, 4]) {
      try {
        out.push(inflate(buf.subarray(start)).toString('utf8'));
      } catch {
        /* not this format */
      }
    }
  }
  if (typeof value === 'string' && /^[A-Za-z0-9+/=_-]{24,}$/.test(value)) {
    const raw = Buffer.from(value, 'base64');
    out.push(raw.toString('utf8'));
    try {
      out.push(zlib.inflateRawSync(raw).toString('utf8'));
    } catch {
      /* not deflated */
    }
  }
  return out;
}

for (const file of files) {
  let db;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch {
    continue;
  }
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type IN ('table') ").all();
  for (const { name } of tables) {
    let rows;
    try {
      rows = db
        .prepare(`SELECT * FROM "${name.replace(/"/g, '""')}"`)
        .raw(true)
        .all();
    } catch {
      continue;
    }
    let columns;
    try {
      columns = db
        .prepare(`SELECT * FROM "${name.replace(/"/g, '""')}"`)
        .columns()
        .map((c) => c.name);
    } catch {
      columns = [];
    }
    const labelColumns = ['collection', 'type'].map((c) => columns.indexOf(c)).filter((i) => i >= 0);
    for (const row of rows) {
      const label = labelColumns.map((i) => String(row[i])).join('/');
      row.forEach((value, i) => {
        for (const text of texts(value)) {
          for (const needle of needles) {
            if (text.toLowerCase().includes(needle.toLowerCase())) {
              hits.push({ file, table: name, column: columns[i] ?? String(i), label, needle });
            }
          }
        }
      });
    }
  }
  db.close();
}
const unique = [...new Map(hits.map((h) => [JSON.stringify(h), h])).values()];
process.stdout.write(JSON.stringify({ raw, values: unique }));
