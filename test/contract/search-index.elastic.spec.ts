import { randomUUID } from 'node:crypto';
import { ElasticSearchIndex } from '../../src/infrastructure/search/elastic/elastic-search-index';
import type { SearchIndex } from '../../src/infrastructure/search/search-index.port';
import { describeWhenEngine } from '../support/engines';
import { describeSearchIndexContract } from './search-index.contract';

/**
 * Writes refreshed at once, as the projection runner does once it has caught up (port: refresh()): the contract
 * checks what a search sees after the runner's step, which on Elasticsearch includes that refresh.
 */
function refreshingWrites(index: ElasticSearchIndex): SearchIndex {
  return Object.assign(Object.create(index) as ElasticSearchIndex, {
    upsert: async (documents: Parameters<SearchIndex['upsert']>[0]) => {
      await index.upsert(documents);
      await index.refresh();
    },
    delete: async (items: Parameters<SearchIndex['delete']>[0]) => {
      await index.delete(items);
      await index.refresh();
    },
  });
}

describeWhenEngine('ELASTICSEARCH_URL', 'SearchIndex contract: Elasticsearch', (url) => {
  // One index per run, dropped at the end: runs never see each other, and reset() only clears this run's index.
  const indexName = `cairn-test-search-${randomUUID().slice(0, 8)}`;

  afterAll(async () => {
    const index = new ElasticSearchIndex(url, { index: indexName });
    await index.drop();
    await index.close();
  });

  describeSearchIndexContract('Elasticsearch', async () => {
    const index = new ElasticSearchIndex(url, { index: indexName });
    await index.init();
    return { index: refreshingWrites(index), cleanup: () => index.close() };
  });
});
