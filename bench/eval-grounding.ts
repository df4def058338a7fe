/**
 * `npm run eval:grounding`: every grounding scenario (test/support/grounding: honest controls, lies of either model
 * and of both, documented gaps) against a live Cairn server process whose composer and reviewer are the
 * adversarial model double. The organization is set up as an operator would: `cairn org:create`,
 * `chatbot:create`, `connector:create` (strict) and `memory:ingest` of each document of the grounding corpus.
 *
 * Prints one row per scenario (id, scenario, outcome, code, verdict, problem) and a last line `leaks: N of M`;
 * exits 1 when anything leaked, a control did not answer, or a refusal had another code or retry semantics.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { adversarialHandlers } from '../test/support/grounding/adversarial-model';
import { GROUNDING_CORPUS } from '../test/support/grounding/grounding-corpus';
import { formatResults, runScenarios, summarize } from '../test/support/grounding/grounding-run';
import { GROUNDING_SCENARIOS } from '../test/support/grounding/grounding-scenarios';
import { CASES_V2, DOCS_V2 } from '../test/support/grounding/grounding-v2';
import {
  formatV2,
  runCaseV2,
  summarizeV2,
  v2Handlers,
  type V2Result,
} from '../test/support/grounding/v2-cases';
import { startModelServer } from '../test/support/model-server';
import { startServerProcess } from './server-process';

/** The compiled CLI next to this file's compiled directory (dist-bench/src/cli.js). */
const CLI_JS = join(__dirname, '..', 'src', 'cli.js');

function cairn(dataDir: string, args: string[]): Record<string, unknown> {
  const out = execFileSync(process.execPath, [CLI_JS, ...args], {
    env: { ...process.env, CAIRN_DATA_DIR: dataDir },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return JSON.parse(out) as Record<string, unknown>;
}

/** A second organization holding the v2 corpus (each document with its audience, authority and dates). */
function setUpV2(dataDir: string, docs: string): string {
  const org = String(cairn(dataDir, ['org:create', '--name', 'Grounding v2']).organization_id);
  cairn(dataDir, ['chatbot:create', org, '--name', 'Desk v2']);
  const connector = cairn(dataDir, [
    'connector:create',
    org,
    '--name',
    'grounding eval v2',
    '--capabilities',
    'assistant_reply,memory_search',
    '--grounding-policy',
    'strict',
  ]);
  for (const [i, doc] of DOCS_V2.entries()) {
    const file = join(docs, `v2-${i}.json`);
    const record = {
      key: `v2-${i}`,
      title: doc.title,
      content: doc.content,
      source_uri: doc.source_uri,
      ...(doc.source_date ? { source_date: doc.source_date } : {}),
      ...(doc.expires_at ? { expires_at: doc.expires_at } : {}),
    };
    writeFileSync(file, `${JSON.stringify(record)}\n`);
    cairn(dataDir, ['memory:ingest', org, file, '--audience', doc.audience, '--authority', doc.authority]);
  }
  return String(connector.token);
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cairn-eval-grounding-'));
  const model = await startModelServer();
  const handlers = adversarialHandlers(GROUNDING_SCENARIOS);
  const v2 = v2Handlers(CASES_V2);
  model.script.respond('draft', (request) => v2.draft(request) ?? handlers.draft(request));
  model.script.respond('review', (request) => v2.review(request) ?? handlers.review(request));
  let stop: () => Promise<void> = async () => {};
  try {
    process.stderr.write('setting up the organization with the operator CLI…\n');
    const org = String(cairn(dataDir, ['org:create', '--name', 'Acme Shop']).organization_id);
    cairn(dataDir, ['chatbot:create', org, '--name', 'Shop desk']);
    const connector = cairn(dataDir, [
      'connector:create',
      org,
      '--name',
      'grounding eval',
      '--capabilities',
      'assistant_reply,memory_search',
      '--grounding-policy',
      'strict',
    ]);
    const docs = join(dataDir, 'docs');
    execFileSync('mkdir', ['-p', docs]);
    for (const [i, doc] of GROUNDING_CORPUS.entries()) {
      const file = join(docs, `doc-${i}.md`);
      writeFileSync(file, `${doc.content}\n`);
      cairn(dataDir, [
        'memory:ingest',
        org,
        file,
        '--audience',
        'customer_safe',
        '--authority',
        doc.authority,
        '--source-uri',
        doc.source_uri,
        '--title',
        doc.title,
      ]);
    }
    const v2Token = setUpV2(dataDir, docs);
    process.stderr.write(`starting Cairn (embedded stores) with the adversarial model double…\n`);
    const server = await startServerProcess(dataDir, {
      OPENAI_BASE_URL: model.url,
      OPENAI_API_KEY: 'eval',
      CAIRN_COMPOSER_MODEL: 'adversarial-composer',
      CAIRN_REVIEWER_MODEL: 'adversarial-reviewer',
      CAIRN_MODEL_TIMEOUT_MS: '1500',
    });
    stop = () => server.stop();
    process.stderr.write(`running ${GROUNDING_SCENARIOS.length} scenarios over HTTP…\n`);
    const results = await runScenarios(server.baseUrl, String(connector.token), GROUNDING_SCENARIOS);
    process.stdout.write(`${formatResults(results)}\n`);
    const summary = summarize(results);
    if (summary.failures.length > 0 || summary.controlsAnswered < summary.controls) process.exitCode = 1;
    process.stderr.write(`running ${CASES_V2.length} v2 cases (${DOCS_V2.length} documents) over HTTP…\n`);
    const run = String(Date.now());
    const v2Results: V2Result[] = [];
    for (const c of CASES_V2) v2Results.push(await runCaseV2(server.baseUrl, v2Token, c, run, v2.observed));
    process.stdout.write(`\n${formatV2(v2Results)}\n`);
    // A leak fails the eval; false refusals are reported (counted against the controls-answered figure).
    if (summarizeV2(v2Results).leaks > 0) process.exitCode = 1;
  } finally {
    await stop();
    await model.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
