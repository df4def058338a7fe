import type { EventStore } from './event-store/event-store.port';
import type { ReadStore } from './read-store/read-store.port';
import type { SearchIndex } from './search/search-index.port';

/*
 * The production engines, each loaded only when its URL is set, so the embedded default never loads the
 * EventStoreDB, MongoDB or Elasticsearch clients.
 */

export async function openProductionEventStore(url: string): Promise<EventStore> {
  const { EsdbEventStore } = await import('./event-store/esdb/esdb-event-store');
  const store = new EsdbEventStore(url);
  await store.ping();
  return store;
}

export async function openProductionReadStore(url: string): Promise<ReadStore> {
  const { MongoReadStore } = await import('./read-store/mongo/mongo-read-store');
  const store = new MongoReadStore(url);
  await store.connect();
  return store;
}

export async function openProductionSearchIndex(url: string): Promise<SearchIndex> {
  const { ElasticSearchIndex } = await import('./search/elastic/elastic-search-index');
  const index = new ElasticSearchIndex(url);
  await index.init();
  return index;
}
