/**
 * `npm run bench -- search-depth`: SciFact (5,183 documents, 8,564 chunks) ingested as memory:ingest does, then a
 * Cairn server process (CAIRN_HTTP_WORKERS=2) answers the 300 test queries with limit 10 and limit 100,
 * interleaved one at a time (depth.ts). Target: limit 100 p50 ≤ 1.5 × limit 10 p50.
 */
import { CommandBus } from '@nestjs/cqrs';
import { join } from 'node:path';
import { RegisterConnectorCommand } from '../../src/commands/connectors/register-connector.command';
import type { RegisterConnectorResult } from '../../src/commands/connectors/register-connector.command';
import { RegisterOrganizationCommand } from '../../src/commands/organizations/register-organization.command';
import type { RegisterOrganizationResult } from '../../src/commands/organizations/register-organization.command';
import { operatorContext } from '../../src/commands/shared/command-context';
import { startBenchServer } from '../bench-server';
import { profileArgs, profileDir, summarizeProfiles } from '../cpu-profile';
import { startServerProcess } from '../server-process';
import type { BenchRow } from '../table';
import { depthRows, interleavedDepth } from './depth';
import { ingestSciFact, scifactTestQueries } from './scifact';

const DURATION_S = 15;
const WARMUP_S = 5;
const HTTP_WORKERS = 2;

export async function benchSearchDepth(dir: string): Promise<BenchRow[]> {
  const dataDir = join(dir, 'search-depth');
  const server = await startBenchServer(dataDir);
  let token: string;
  try {
    const commands = server.app.get(CommandBus);
    const context = operatorContext('bench');
    const org = await commands.execute<RegisterOrganizationCommand, RegisterOrganizationResult>(
      new RegisterOrganizationCommand('Depth bench', null, null, context),
    );
    const connector = await commands.execute<RegisterConnectorCommand, RegisterConnectorResult>(
      new RegisterConnectorCommand(org.organization_id, 'bench', ['memory_search'], 'strict', context),
    );
    token = connector.token;
    await ingestSciFact(server.app, org.organization_id);
  } finally {
    await server.app.close();
  }
  // With CAIRN_BENCH_PROFILE_DIR the server runs under --cpu-prof and its busiest functions are printed.
  const profiles = profileDir('search-depth');
  const cairn = await startServerProcess(
    dataDir,
    { CAIRN_HTTP_WORKERS: String(HTTP_WORKERS) },
    profileArgs(profiles),
  );
  try {
    const latencies = await interleavedDepth(
      cairn.baseUrl,
      token,
      scifactTestQueries().texts,
      DURATION_S,
      WARMUP_S,
    );
    return depthRows('SciFact test queries, 8.6k chunks', latencies);
  } finally {
    await cairn.stop();
    if (profiles !== null)
      process.stderr.write(
        `search-depth: where the searches spent their time\n${summarizeProfiles(profiles)}\n`,
      );
  }
}
