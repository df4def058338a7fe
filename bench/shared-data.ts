import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/*
 * The public data sets of the evaluations (BEIR SciFact, leaky-repo) live in the project's `shared/data/`, a
 * directory beside a checkout (`../shared`) that is not part of this repository; CAIRN_SHARED_DIR names another
 * place. An evaluation that does not find its data says what it needs and exits 0 as skipped: a fresh clone has no
 * `../shared`, and that is not a failure of the code under evaluation.
 */

/** The project root: the nearest directory above this file holding package.json (works from src and dist). */
export function projectRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('package.json not found above ' + __dirname);
    dir = parent;
  }
  return dir;
}

/** `shared/data/<segments>`: under CAIRN_SHARED_DIR when set, else `../shared` beside the project. */
export function sharedDataPath(...segments: string[]): string {
  const shared = process.env.CAIRN_SHARED_DIR || resolve(projectRoot(), '..', 'shared');
  return resolve(shared, 'data', ...segments);
}

/**
 * `path` when it exists; otherwise prints on stdout that `evaluation` is skipped, what it needs and how to point
 * at it (`override`, an environment variable), and returns null: the caller returns, and the process exits 0.
 */
export function sharedDataOrSkip(evaluation: string, path: string, override: string): string | null {
  if (existsSync(path)) return path;
  process.stdout.write(
    `${evaluation}: skipped: ${path} not found. It reads public data from the project's shared/data directory ` +
      `(../shared beside the checkout; not part of this repository). Set ${override} to the data, or ` +
      `CAIRN_SHARED_DIR to a shared directory.\n`,
  );
  return null;
}
