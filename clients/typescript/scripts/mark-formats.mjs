// Marks each build's module format for Node: dist/esm is ES modules, dist/cjs CommonJS (`npm run build`).
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dist = fileURLToPath(new globalThis.URL('../dist/', import.meta.url));
writeFileSync(`${dist}esm/package.json`, '{ "type": "module" }\n');
writeFileSync(`${dist}cjs/package.json`, '{ "type": "commonjs" }\n');
