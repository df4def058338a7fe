// Opens every SQLite file given read-only (in this child process) and prints JSON lines
// {file, table, column, rowid?} for every value whose text, inflated text or base64-decoded
// text contains one of the needles (argv after "--").
'use strict';
const Database = require('better-sqlite3');
const zlib = require('node:zlib');

const sep = process.argv.indexOf('--');
const files = process.argv.slice(2, sep);
const needles = process.argv.slice(sep + 1);
const hits = [];

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
process.stdout.write(JSON.stringify(unique));
