import { createConnector, createOrganization } from '../support/fixtures';
import { ALL_MEMORY, MEMORY } from '../support/memory-fixtures';
import { http, startTestApp, type TestApp } from '../support/test-app';
import { EVASIONS_V3, SUPPORT_TEXTS_V3 } from '../unit/unsafe-content/samples/evasions-v3';

/*
 * Issue 29 point 5: blind-corpus evasions are refused through real HTTP saves and proposals (422 unsafe_content,
 * nothing stored); support texts are stored. The whole corpus runs through the shared scanner entry point in
 * test/unit/unsafe-content/evasions-v3.spec.ts; this samples each family end to end.
 */
describe('the blind evasion corpus over HTTP (issue 29)', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp();
    const org = (await createOrganization(t.commands, 'Corpus')).organization_id;
    token = (await createConnector(t.commands, org, ALL_MEMORY)).token;
  });
  afterAll(async () => t.close());

  const post = (path: string, body: unknown) => http(t.baseUrl, 'POST', `${MEMORY}/${path}`, { token, body });
  const sample = [
    'v3-armor-label-cert-wraps-aws-pair',
    'v3-cli-password-docker-login-p',
    'v3-cli-password-mysql-attached-p',
    'v3-cli-password-sshpass',
    'v3-url-credentials-redis-empty-user',
    'v3-url-credentials-oracle-ez-connect',
  ].map((id) => EVASIONS_V3.find((item) => item.id === id)!);

  it.each(sample.map((item) => [item.id, item.text] as const))(
    'refuses %s on save and on proposals, storing nothing',
    async (_id, text) => {
      const head = await t.stores.eventStore.headPosition();
      const saved = await post('save', { kind: 'note', title: 'Note', content: text });
      const proposed = await post('proposals', { title: 'Proposal', content: text });
      expect([saved.status, saved.body.error?.code]).toEqual([422, 'unsafe_content']);
      expect([proposed.status, proposed.body.error?.code]).toEqual([422, 'unsafe_content']);
      expect(await t.stores.eventStore.headPosition()).toBe(head);
    },
  );

  it('stores support texts', async () => {
    for (const { text } of SUPPORT_TEXTS_V3.slice(0, 10)) {
      const saved = await post('save', { kind: 'note', title: 'Note', content: text });
      expect(saved.status).toBe(200);
    }
  });
});
