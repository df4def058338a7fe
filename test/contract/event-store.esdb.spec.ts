import { EsdbEventStore } from '../../src/infrastructure/event-store/esdb/esdb-event-store';
import { describeWhenEngine } from '../support/engines';
import { describeEventStoreContract } from './event-store.contract';

// The server is shared between runs: the contract gives every test its own random stream prefix.
describeWhenEngine('EVENTSTORE_URL', 'EventStore contract: EventStoreDB', (url) => {
  describeEventStoreContract('EventStoreDB', async () => {
    const store = new EsdbEventStore(url);
    return { store, cleanup: () => store.close() };
  });
});
