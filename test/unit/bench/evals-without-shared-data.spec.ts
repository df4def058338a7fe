import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { projectRoot, sharedDataPath } from '../../../bench/shared-data';

/**
 * A fresh clone has no `../shared` (the public data sets live beside a checkout, not in the repository): the
 * evaluations that read it say what they need and end as skipped (exit 0), instead of failing with a stack.
 */
describe('evaluations without the shared data directory', () => {
  let empty: string;
  const saved = { ...process.env };
  let output: string[];
  let exit: jest.SpyInstance;

  beforeEach(() => {
    empty = mkdtempSync(join(tmpdir(), 'cairn-no-shared-'));
    process.env.CAIRN_SHARED_DIR = empty;
    delete process.env.LEAKY_REPO_ARCHIVE;
    delete process.env.CAIRN_SCIFACT_DIR;
    output = [];
    jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      output.push(String(chunk));
      return true;
    });
    jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      output.push(`stderr: ${String(chunk)}`);
      return true;
    });
    exit = jest.spyOn(process, 'exit').mockImplementation(() => undefined as never);
  });
  afterEach(() => {
    jest.restoreAllMocks();
    process.env = { ...saved };
    process.exitCode = undefined;
    rmSync(empty, { recursive: true, force: true });
  });

  /** Loads an evaluation script as `node dist-bench/bench/<name>.js` would, and waits for its run to end. */
  async function run(script: string): Promise<void> {
    await jest.isolateModulesAsync(async () => {
      const { finished } = (await import(`../../../bench/${script}`)) as { finished: Promise<void> };
      await finished;
    });
  }

  it('the data is looked for in ../shared beside the project unless CAIRN_SHARED_DIR says otherwise', () => {
    delete process.env.CAIRN_SHARED_DIR;
    expect(sharedDataPath('beir-scifact')).toBe(
      resolve(projectRoot(), '..', 'shared', 'data', 'beir-scifact'),
    );
    process.env.CAIRN_SHARED_DIR = empty;
    expect(sharedDataPath('beir-scifact')).toBe(join(empty, 'data', 'beir-scifact'));
  });

  it.each([
    ['eval-secrets', 'eval:secrets', 'LEAKY_REPO_ARCHIVE', 'secrets/leaky-repo.tar.gz'],
    ['eval-retrieval', 'eval:retrieval', 'CAIRN_SCIFACT_DIR', 'beir-scifact/corpus.jsonl'],
  ])(
    '%s says it is skipped, what it needs and how to point at it; no failure exit',
    async (script, name, env, path) => {
      await run(script);
      const text = output.join('');
      expect(text).toContain(`${name}: skipped: ${join(empty, 'data', path)} not found`);
      expect(text).toContain(env);
      expect(text).not.toContain('stderr:');
      expect(exit).not.toHaveBeenCalled();
      expect(process.exitCode ?? 0).toBe(0);
    },
  );
});
