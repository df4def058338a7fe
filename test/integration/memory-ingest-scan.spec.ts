import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cairn } from '../support/cli';
import { readOpenedEvents } from '../support/server-process';
import { makeTempDir } from '../support/temp-dir';
import { EVASIONS_V3 } from '../unit/unsafe-content/samples/evasions-v3';

/*
 * Issue 29 point 5: `memory:ingest` scans every document with the scanner save and proposals use. A document with
 * a finding is refused (file, line and flag in the JSON result and on stderr) and the run keeps going; an operator
 * may accept a named flag with `--allow-flag`, and the event records it.
 */
describe('memory:ingest scans every document', () => {
  jest.setTimeout(120_000);
  const data = makeTempDir('cairn-ingest-scan-');
  const docs = makeTempDir('cairn-ingest-scan-docs-');
  afterAll(() => {
    data.cleanup();
    docs.cleanup();
  });

  const awsId = 'AKIA' + 'QX7ZL2MWN4PRT5VY';
  const bcrypt = '$2b$12$' + 'R9h/cIPz0gi.URNNX3kh2OPST9/PgBkqquzi.Ss7KIUgO2t0jWMUW'.slice(0, 53);

  it('refuses the document with a secret, names file, line and flag, and ingests the others', async () => {
    const root = join(docs.dir, 'kb');
    mkdirSync(root, { recursive: true });
    writeFileSync(join(root, 'hours.md'), '# Opening hours\n\nOpen 9 to 17 on weekdays.\n');
    writeFileSync(
      join(root, 'uploader.md'),
      `# S3 uploader\n\nThe bucket is media-prod.\n\nUpload key ${awsId} for the nightly job.\n`,
    );
    writeFileSync(join(root, 'parking.txt'), 'Parking is behind the building, entrance on Dock Street.\n');
    const org = (await cairn(data.dir, 'org:create', '--name', 'Scan')).json.organization_id;

    const run = await cairn(data.dir, 'memory:ingest', String(org), root);
    expect(run.code).toBe(0);
    expect(run.json.totals).toMatchObject({ created: 2, refused: 1 });
    expect(run.json.refused).toEqual([
      {
        path: expect.stringMatching(/uploader\.md$/),
        document_key: 'file:kb/uploader.md',
        flags: [expect.objectContaining({ field: 'content', kind: 'secret', rule: 'aws_access_key_id' })],
      },
    ]);
    expect(run.json.refused[0].flags[0].line).toBeGreaterThan(1);
    expect(run.stderr).toMatch(
      /refused \S*uploader\.md: unsafe content \(secret\/aws_access_key_id at content line \d+/,
    );
    expect(run.stdout + run.stderr).not.toContain(awsId);
    const created = (await readOpenedEvents(data.dir)).filter((e) => e.type === 'MemoryItemCreated');
    expect(created.map((e) => e.data.title).sort()).toEqual(['Opening hours', 'parking']);
    expect(JSON.stringify(created)).not.toContain(awsId);
  });

  it('--allow-flag accepts a named flag and records it, with the operator, in the event', async () => {
    const root = join(docs.dir, 'allowed');
    mkdirSync(root, { recursive: true });
    writeFileSync(
      join(root, 'legacy.md'),
      `# Legacy admin row\n\nThe old admin hash was ${bcrypt} (rotated).\n`,
    );
    const org = (await cairn(data.dir, 'org:create', '--name', 'Allow')).json.organization_id;

    const refused = await cairn(data.dir, 'memory:ingest', String(org), root, '--allow-flag', 'secret');
    expect(refused.json.totals).toMatchObject({ created: 0, refused: 1 });
    expect(refused.json.refused[0].flags[0]).toMatchObject({ kind: 'password_hash', rule: 'bcrypt_hash' });

    const run = await cairn(data.dir, 'memory:ingest', String(org), root, '--allow-flag', 'bcrypt_hash');
    expect(run.json.totals).toMatchObject({ created: 1, refused: 0 });
    const [created] = (await readOpenedEvents(data.dir)).filter(
      (e) => e.type === 'MemoryItemCreated' && e.data.organization_id === org,
    );
    expect(created.data.unsafe_flags_allowed).toEqual({
      allowed_by: expect.stringMatching(/^operator:/),
      allowed: ['bcrypt_hash'],
      flags: [
        { field: 'content', kind: 'password_hash', rule: 'bcrypt_hash', line: 3, column: expect.any(Number) },
      ],
    });
  });

  it('refuses blind-corpus evasions written as files', async () => {
    const root = join(docs.dir, 'corpus');
    mkdirSync(root, { recursive: true });
    const picked = ['v3-armor-label-cert-wraps-aws-pair', 'v3-armor-label-one-line-body-over-512'];
    for (const id of picked) {
      writeFileSync(join(root, `${id}.txt`), EVASIONS_V3.find((item) => item.id === id)!.text);
    }
    writeFileSync(join(root, 'fine.md'), '# Fine\n\nNothing secret here.\n');
    const org = (await cairn(data.dir, 'org:create', '--name', 'Corpus')).json.organization_id;
    const run = await cairn(data.dir, 'memory:ingest', String(org), root);
    expect(run.json.totals).toMatchObject({ created: 1, refused: picked.length });
  });
});
