#!/usr/bin/env node
'use strict';
// The operator CLI. It runs the compiled build: `npm run build` (or `npm start` / `npm test`) creates dist/.
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const entry = join(__dirname, '..', 'dist', 'cli.js');
if (!existsSync(entry)) {
  // `cairn mcp`'s stdout is the MCP protocol: its errors go to stderr.
  const out = process.argv[2] === 'mcp' ? process.stderr : process.stdout;
  out.write(
    JSON.stringify({
      ok: false,
      error: { code: 'not_built', message: 'run `npm run build` first', details: [] },
    }) + '\n',
  );
  process.exit(1);
}
require(entry);
