import { execFile } from 'node:child_process';
import { join } from 'node:path';

export interface CliResult {
  code: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests assert on arbitrary JSON output
  json: any;
  stdout: string;
  stderr: string;
}

const BIN = join(__dirname, '..', '..', 'bin', 'cairn.js');

/** Runs `cairn ...args` as a real child process on a data directory (needs `npm run build`). */
export function cairn(dataDir: string, ...args: string[]): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { env: { ...process.env, CAIRN_DATA_DIR: dataDir }, timeout: 60_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        let json: unknown = null;
        try {
          json = JSON.parse(stdout);
        } catch {
          json = null;
        }
        resolve({ code, json, stdout, stderr });
      },
    );
  });
}
