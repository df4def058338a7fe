/**
 * `npm run bench -- scanner`: the secret scanner on adversarial input (issue 29).
 * 1. The input of issue 29 point 1 (a word, then spaces without a newline) at 100,000 characters, median of 5
 *    scans; target ≤ 50 ms (it took 172 s at 10,000 characters before the split-token join was hand-written).
 * 2. The slowest of the adversarial inputs (bench/scanner-inputs.ts) at 100,000 characters, median of 3 scans
 *    each: every detector is linear, but some inputs make more matches than others (reported, named).
 * 3. A Cairn server process with 2 HTTP workers: two concurrent saves of the worst-case input (the largest save
 *    the API accepts, 100,000 characters) while `/health` is polled every 10 ms; the slowest `/health` answer.
 *    Target ≤ 100 ms.
 */
import { CommandBus } from '@nestjs/cqrs';
import { join } from 'node:path';
import { RegisterConnectorCommand } from '../src/commands/connectors/register-connector.command';
import type { RegisterConnectorResult } from '../src/commands/connectors/register-connector.command';
import { RegisterOrganizationCommand } from '../src/commands/organizations/register-organization.command';
import type { RegisterOrganizationResult } from '../src/commands/organizations/register-organization.command';
import { operatorContext } from '../src/commands/shared/command-context';
import { UnsafeContentScanner } from '../src/safety/unsafe-content/unsafe-content-scanner';
import { startBenchServer } from './bench-server';
import { adversarialInputs, wordThenSpaces } from './scanner-inputs';
import { startServerProcess } from './server-process';
import type { BenchRow } from './table';

const LENGTH = 100_000;
const SAVE_PATH = '/app/api/tool-connectors/v1/memory/save';

async function medianScanMs(scanner: UnsafeContentScanner, text: string, runs: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await scanner.scan({ content: text });
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)]!;
}

async function healthDuringSaves(dir: string): Promise<{ slowestHealthMs: number; savesMs: number }> {
  const dataDir = join(dir, 'scanner-http');
  const setup = await startBenchServer(dataDir);
  let token: string;
  try {
    const commands = setup.app.get(CommandBus);
    const context = operatorContext('bench');
    const org = await commands.execute<RegisterOrganizationCommand, RegisterOrganizationResult>(
      new RegisterOrganizationCommand('Scanner bench', null, null, context),
    );
    const connector = await commands.execute<RegisterConnectorCommand, RegisterConnectorResult>(
      new RegisterConnectorCommand(org.organization_id, 'bench', ['memory_save'], 'strict', context),
    );
    token = connector.token;
  } finally {
    await setup.app.close();
  }
  const server = await startServerProcess(dataDir, { CAIRN_HTTP_WORKERS: '2' });
  try {
    const save = (n: number) =>
      fetch(`${server.baseUrl}${SAVE_PATH}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ title: `worst case ${n}`, content: wordThenSpaces(LENGTH) }),
      }).then((response) => response.arrayBuffer());
    await save(0); // warm-up: both workers' scanners loaded
    let saving = true;
    let slowestHealthMs = 0;
    const poll = (async () => {
      while (saving) {
        const started = performance.now();
        await (await fetch(`${server.baseUrl}/health`)).arrayBuffer();
        slowestHealthMs = Math.max(slowestHealthMs, performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    const started = performance.now();
    await Promise.all([save(1), save(2)]);
    const savesMs = performance.now() - started;
    saving = false;
    await poll;
    return { slowestHealthMs, savesMs };
  } finally {
    await server.stop();
  }
}

export async function benchScanner(dir: string): Promise<BenchRow[]> {
  const scanner = new UnsafeContentScanner();
  await scanner.scan({ content: 'warm-up' });
  const worstCase = await medianScanMs(scanner, wordThenSpaces(LENGTH), 5);
  let slowest = { name: '', ms: 0 };
  for (const [name, text] of Object.entries(adversarialInputs(LENGTH))) {
    const ms = await medianScanMs(scanner, text, 3);
    if (ms > slowest.ms) slowest = { name, ms };
  }
  const http = await healthDuringSaves(dir);
  return [
    {
      benchmark: 'secret scanner: word + 100,000 spaces (issue 29 ReDoS input), median of 5',
      value: worstCase,
      unit: 'ms',
      target: '≤ 50',
      ok: worstCase <= 50,
    },
    {
      benchmark: `secret scanner: slowest adversarial 100,000-char input (${slowest.name}), median of 3`,
      value: slowest.ms,
      unit: 'ms',
    },
    {
      benchmark: 'secret scanner: two concurrent worst-case saves, 2 workers (both answered)',
      value: http.savesMs,
      unit: 'ms',
    },
    {
      benchmark: 'secret scanner: slowest /health during those saves',
      value: http.slowestHealthMs,
      unit: 'ms',
      target: '≤ 100',
      ok: http.slowestHealthMs <= 100,
    },
  ];
}
