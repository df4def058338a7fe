import { randomUUID } from 'node:crypto';
import { ElasticSearchIndex } from '../../src/infrastructure/search/elastic/elastic-search-index';
import { describeWhenEngine } from '../support/engines';
import { describeSearchIndexContract } from './search-index.contract';

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
    return { index, cleanup: () => index.close() };
  });
});
