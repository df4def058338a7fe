import { WITHHELD_LINK_MARKER } from '../../src/safety/link-text';
import { createConnector, createOrganization } from '../support/fixtures';
import { ALL_MEMORY, MEMORY, ingest } from '../support/memory-fixtures';
import { http, startTestApp, type TestApp } from '../support/test-app';

/** Invariant 5 in the search response: a context package is text that leaves, so non-public links are withheld. */
describe('context packages withhold non-public links (invariant 5)', () => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await startTestApp();
    const org = (await createOrganization(t.commands, 'Links')).organization_id;
    token = (await createConnector(t.commands, org, ALL_MEMORY)).token;
    await ingest(
      t.commands,
      org,
      'Parking map at http://10.0.0.5/map',
      'Parking is free behind the building. Staff map: http://169.254.169.254/latest/meta-data/ and ' +
        'ｈｔｔｐ：／／１２７．０．０．１/admin. Public map: https://www.acme-shop.com/parking.',
    );
  });
  afterAll(() => t.close());

  it('withholds them in context, summary and sections, and keeps public links', async () => {
    const res = await http(t.baseUrl, 'POST', `${MEMORY}/search`, {
      token,
      body: { query: 'parking map', include_context_package: true },
    });
    expect(res.status).toBe(200);
    const pkg = JSON.stringify(res.body.context_package);
    for (const host of ['10.0.0.5', '169.254.169.254', '127.0.0.1', '１２７'])
      expect(pkg).not.toContain(host);
    expect(res.body.context_package.context).toContain(WITHHELD_LINK_MARKER);
    expect(res.body.context_package.context).toContain('https://www.acme-shop.com/parking');
    const [section] = Object.values(res.body.context_package.sections) as Array<Array<{ title: string }>>;
    expect(section[0].title).toBe(`Parking map at ${WITHHELD_LINK_MARKER}`);
  });
});

describe('context packages read links as a browser would (issue 31)', () => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await startTestApp();
    const org = (await createOrganization(t.commands, 'Browser links')).organization_id;
    token = (await createConnector(t.commands, org, ALL_MEMORY)).token;
    await ingest(
      t.commands,
      org,
      'Locker codes',
      'Locker codes are printed at the desk. Desk wiki: <a href="//10.0.0.21/codes">codes</a>, ' +
        'https:\\\\10.0.0.22\\codes, https&colon;//10.0.0.23/codes, http:0x7f000001 and 10-0-0-24.sslip.io. ' +
        'Public locker guide: https://www.acme-shop.com/lockers.',
    );
  });
  afterAll(() => t.close());

  it('withholds scheme-relative, backslash, entity-encoded, slashless and bare-name links', async () => {
    const res = await http(t.baseUrl, 'POST', `${MEMORY}/search`, {
      token,
      body: { query: 'locker codes', include_context_package: true },
    });
    expect(res.status).toBe(200);
    const pkg = JSON.stringify(res.body.context_package);
    for (const host of ['10.0.0.21', '10.0.0.22', '10.0.0.23', '0x7f000001', '10-0-0-24'])
      expect(pkg).not.toContain(host);
    expect(res.body.context_package.context).toContain(WITHHELD_LINK_MARKER);
    expect(res.body.context_package.context).toContain('https://www.acme-shop.com/lockers');
  });
});
