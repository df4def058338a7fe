import { QueryBus } from '@nestjs/cqrs';
import { ReviseMemoryItemCommand } from '../../src/commands/memory/revise-memory-item.command';
import { ReplyRetrieval } from '../../src/commands/replies/reply-retrieval';
import { connectorContext, operatorContext } from '../../src/commands/shared/command-context';
import type { ConnectorPrincipal } from '../../src/http/auth/connector-principal';
import { createConnector, createOrganization } from '../support/fixtures';
import { ingest } from '../support/memory-fixtures';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * A reply's evidence quotes the chunks of the revision its search ranked. The search keeps items without text and
 * the chunks are read afterwards; when the item is revised in that gap, the evidence must not quote the new
 * revision under the old revision's reference. Two guards hold this: chunk ids are never reused by a revision
 * (the matched ids are not in the new chunks), and the chunk read skips an item whose revision moved; the first
 * test fails only when both are gone (checked by removing them).
 */
describe('reply retrieval when an item is revised between the search and the chunk read', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  async function setUp(name: string) {
    const organizationId = (await createOrganization(t.commands, name)).organization_id;
    const connector = await createConnector(t.commands, organizationId, ['assistant_reply']);
    const principal: ConnectorPrincipal = {
      connector_id: connector.connector_id,
      organization_id: organizationId,
      name: 'Connector',
      client_key: connector.client_key,
      capabilities: connector.capabilities,
      grounding_policy: connector.grounding_policy,
      token_id: 'test-token',
    };
    const filler = [
      'Every visit starts with a short health questionnaire.',
      'Our hygienists explain each step before they begin.',
      'Children under twelve are seen on Wednesday afternoons.',
      'We send a reminder by text message two days ahead.',
      'Parking is free behind the building on Elm Street.',
    ].join(' ');
    const item = await ingest(
      t.commands,
      organizationId,
      'Prices',
      `# Prices\n\n## Cleanings\n\n${filler} A routine cleaning costs 80 euros.`,
    );
    return { organizationId, principal, itemId: item.memory_item_id };
  }

  /** A reply's retrieval for the question the item answers. */
  const retrieve = (principal: ConnectorPrincipal) =>
    t.app
      .get(ReplyRetrieval)
      .retrieve(principal, 'How much does a routine cleaning cost?', connectorContext(principal));

  it('falls back to the ranked excerpt instead of quoting the newer revision', async () => {
    const { organizationId, principal, itemId } = await setUp('Revised in between');
    const queries = t.app.get(QueryBus);
    const search = queries.execute.bind(queries);
    // The real search runs; the item is revised (and projected) before the search result is handed on.
    const spy = jest.spyOn(queries, 'execute').mockImplementationOnce(async (query) => {
      const found = await search(query);
      const revised = await t.commands.execute(
        new ReviseMemoryItemCommand(
          organizationId,
          itemId,
          {
            content: '# Prices\n\n## Cleanings\n\nA routine cleaning now costs 95 euros, booked online only.',
            format: 'markdown',
            title: null,
            source_date: null,
            expires_at: null,
          },
          operatorContext('test'),
        ),
      );
      expect(revised).toMatchObject({ status: 'revised', revision: 2 });
      return found;
    });
    try {
      const retrieved = await retrieve(principal);
      expect(retrieved.evidence).toHaveLength(1);
      const [evidence] = retrieved.evidence;
      expect(evidence.revision).toBe(1);
      expect(evidence.reference.memory_item_id).toBe(itemId);
      // Neither the new revision's text nor revision 1's whole chunk: the excerpt the search ranked.
      expect(evidence.text).not.toContain('95 euros');
      expect(evidence.text).toBe(evidence.reference.excerpt);
      expect(evidence.text).toContain('80 euros');
      expect(evidence.text).not.toContain('short health questionnaire');
    } finally {
      spy.mockRestore();
    }
  });

  it('quotes the whole matched chunk when the item did not change', async () => {
    const { principal } = await setUp('Unchanged');
    const retrieved = await retrieve(principal);
    expect(retrieved.evidence).toHaveLength(1);
    const [evidence] = retrieved.evidence;
    expect(evidence.revision).toBe(1);
    expect(evidence.text).toContain('Cleanings');
    expect(evidence.text).toContain('short health questionnaire');
    expect(evidence.text).toContain('80 euros');
  });
});
