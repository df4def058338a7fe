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
import { CASES_V3, DOCS_V3 } from '../test/support/grounding/grounding-v3';
import {
  formatV2,
  runCaseV2,
  summarizeV2,
  v2Handlers,
  type CaseV2,
  type DocV2,
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

/** A declarative corpus (the v2 format) and the label its summary lines carry. */
interface Corpus {
  label: string;
  docs: readonly DocV2[];
  cases: readonly CaseV2[];
}

/** The declarative corpora, each written blind by a red-teamer and run in an organization of its own. */
const CORPORA: Corpus[] = [
  { label: 'v2', docs: DOCS_V2, cases: CASES_V2 },
  { label: 'v3', docs: DOCS_V3, cases: CASES_V3 },
];

/** An organization holding a declarative corpus (each document with its audience, authority and dates). */
function setUpCorpus(dataDir: string, docs: string, corpus: Corpus): string {
  const { label } = corpus;
  const org = String(cairn(dataDir, ['org:create', '--name', `Grounding ${label}`]).organization_id);
  cairn(dataDir, ['chatbot:create', org, '--name', `Desk ${label}`]);
  const connector = cairn(dataDir, [
    'connector:create',
    org,
    '--name',
    `grounding eval ${label}`,
    '--capabilities',
    'assistant_reply,memory_search',
    '--grounding-policy',
    'strict',
  ]);
  for (const [i, doc] of corpus.docs.entries()) {
    const file = join(docs, `${label}-${i}.json`);
    const record = {
      key: `${label}-${i}`,
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
  const v2 = v2Handlers(CORPORA.flatMap((corpus) => corpus.cases));
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
    const tokens = CORPORA.map((corpus) => setUpCorpus(dataDir, docs, corpus));
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
    const run = String(Date.now());
    for (const [i, corpus] of CORPORA.entries()) {
      const { label, cases } = corpus;
      process.stderr.write(
        `running ${cases.length} ${label} cases (${corpus.docs.length} documents) over HTTP…\n`,
      );
      const corpusResults: V2Result[] = [];
      for (const c of cases)
        corpusResults.push(await runCaseV2(server.baseUrl, tokens[i], c, run, v2.observed));
      process.stdout.write(`\n${formatV2(corpusResults, label)}\n`);
      // A leak fails the eval; false refusals are reported (counted against the controls-answered figure).
      if (summarizeV2(corpusResults).leaks > 0) process.exitCode = 1;
    }
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
