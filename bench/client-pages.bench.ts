/**
 * Public client pages benchmark: a real Cairn server (in-process, HTTP on 127.0.0.1, embedded stores) with
 * PAGES organizations, each with a website, a chatbot and a published page, created through the real commands
 * (events → projections → the client pages read model). Then, for the JSON API and the HTML pages, list and
 * detail requests under autocannon (in a child process, CONNECTIONS connections, DURATION_S seconds each):
 *
 * - list: `GET /api/cairn-client-pages` cycling through every sort, several pages (first, middle, last) and
 *   page sizes, and searches (`q`) that match a few, many or no pages;
 * - detail: `GET /api/cairn-client-pages/{slug}` cycling through QUERY_COUNT slugs spread over the directory.
 *
 * The rate limit is off for the run (CAIRN_PUBLIC_RATE_LIMIT=0): it exists to stop one client, and the load
 * generator is one client. No request sends If-None-Match: every response is a full 200.
 */
import { CommandBus } from '@nestjs/cqrs';
import { join } from 'node:path';
import {
  CreateChatbotCommand,
  type CreateChatbotResult,
} from '../src/commands/chatbots/create-chatbot.command';
import { PublishClientPageCommand } from '../src/commands/client-pages/publish-client-page.command';
import {
  RegisterOrganizationCommand,
  type RegisterOrganizationResult,
} from '../src/commands/organizations/register-organization.command';
import { operatorContext } from '../src/commands/shared/command-context';
import { startBenchServer, type BenchServer } from './bench-server';
import { httpLoad, percentile } from './http-load';
import type { BenchRow } from './table';

const PAGES = 10_000;
/** Pages created at once (each a chain of four commands that wait for the read models). */
const CONCURRENCY = 32;
const QUERY_COUNT = 200;
const DURATION_S = 5;
const CONNECTIONS = 2;
const API = '/api/cairn-client-pages';
const TARGET_P50_MS = 5;

const WORDS =
  'alpine bakery cedar dental elm fjord garden harbor iris juniper kiln lumen maple north orchard'.split(' ');

function organizationName(n: number): string {
  return `${WORDS[n % WORDS.length]} ${WORDS[Math.floor(n / WORDS.length) % WORDS.length]} ${n}`.replace(
    /^./,
    (c) => c.toUpperCase(),
  );
}

export async function createPage(server: BenchServer, n: number): Promise<string> {
  const commands = server.app.get(CommandBus);
  const context = operatorContext('bench');
  const name = organizationName(n);
  const org = await commands.execute<RegisterOrganizationCommand, RegisterOrganizationResult>(
    new RegisterOrganizationCommand(name, `bench-org-${n}`, `https://www${n}.example.com`, context),
  );
  const chatbot = await commands.execute<CreateChatbotCommand, CreateChatbotResult>(
    new CreateChatbotCommand(org.organization_id, `${name} assistant`, `www${n}.example.com`, context),
  );
  const slug = `bench-page-${n}`;
  await commands.execute(
    new PublishClientPageCommand(
      org.organization_id,
      chatbot.chatbot_id,
      slug,
      `${name} is a ${WORDS[(n * 7) % WORDS.length]} business with ${n % 50} locations.`,
      `Visitors ask the assistant about ${WORDS[(n * 3) % WORDS.length]} and ${WORDS[(n * 5) % WORDS.length]}.`,
      context,
    ),
  );
  return slug;
}

function listPaths(): string[] {
  const lastPage = Math.ceil(PAGES / 12);
  const paths: string[] = [];
  for (const sort of ['name', 'newest', 'updated']) {
    for (const page of [1, 2, Math.floor(lastPage / 2), lastPage])
      paths.push(`${API}?sort=${sort}&page=${page}`);
    paths.push(`${API}?sort=${sort}&per_page=24&page=3`);
  }
  for (const q of ['cedar', 'maple garden', 'locations', 'kiln 77', 'no such client']) {
    paths.push(`${API}?q=${encodeURIComponent(q)}`, `${API}?q=${encodeURIComponent(q)}&page=2&sort=newest`);
  }
  return paths;
}

async function load(server: BenchServer, paths: readonly string[]) {
  const result = await httpLoad({
    url: server.baseUrl,
    connections: CONNECTIONS,
    durationS: DURATION_S,
    requests: paths.map((path) => ({ method: 'GET' as const, path, headers: {} })),
  });
  return result;
}

function rows(label: string, result: Awaited<ReturnType<typeof load>>, target: boolean): BenchRow[] {
  const p50 = percentile(result.latencies, 0.5);
  const out: BenchRow[] = [
    {
      benchmark: `${label} p50, ${PAGES / 1000}k pages`,
      value: p50,
      unit: 'ms',
      ...(target ? { target: `<= ${TARGET_P50_MS}`, ok: p50 <= TARGET_P50_MS } : {}),
    },
    { benchmark: `${label} p95`, value: percentile(result.latencies, 0.95), unit: 'ms' },
    { benchmark: `${label} p99`, value: percentile(result.latencies, 0.99), unit: 'ms' },
    { benchmark: `${label} throughput`, value: result.requestsPerSecond, unit: 'req/s' },
  ];
  if (result.failures > 0) {
    out.push({
      benchmark: `${label} failures`,
      value: result.failures,
      unit: 'requests',
      target: '0',
      ok: false,
    });
  }
  return out;
}

export async function benchClientPages(dir: string): Promise<BenchRow[]> {
  const server = await startBenchServer(join(dir, 'client-pages'), { CAIRN_PUBLIC_RATE_LIMIT: '0' });
  try {
    process.stderr.write(`client pages: publishing ${PAGES.toLocaleString('en')} pages…\n`);
    const started = performance.now();
    const slugs: string[] = [];
    for (let n = 0; n < PAGES; n += CONCURRENCY) {
      const batch = Array.from({ length: Math.min(CONCURRENCY, PAGES - n) }, (_, i) =>
        createPage(server, n + i),
      );
      slugs.push(...(await Promise.all(batch)));
    }
    const setupS = (performance.now() - started) / 1000;
    const step = Math.floor(PAGES / QUERY_COUNT);
    const detailSlugs = Array.from({ length: QUERY_COUNT }, (_, i) => slugs[i * step]);
    const measured: BenchRow[] = [
      {
        benchmark: `publishing ${PAGES / 1000}k pages (real commands)`,
        value: PAGES / setupS,
        unit: 'pages/s',
      },
    ];
    process.stderr.write(`client pages: API list and detail (${DURATION_S} s each)…\n`);
    measured.push(...rows('API list', await load(server, listPaths()), true));
    measured.push(
      ...rows(
        'API detail',
        await load(
          server,
          detailSlugs.map((slug) => `${API}/${slug}`),
        ),
        true,
      ),
    );
    process.stderr.write(`client pages: HTML list and detail (${DURATION_S} s each)…\n`);
    const htmlList = listPaths().map((path) => path.replace(API, '/clients'));
    measured.push(...rows('HTML /clients', await load(server, htmlList), false));
    measured.push(
      ...rows(
        'HTML /clients/{slug}',
        await load(
          server,
          detailSlugs.map((s) => `/clients/${s}`),
        ),
        false,
      ),
    );
    return measured;
  } finally {
    await server.app.close();
  }
}
