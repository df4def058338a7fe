import { MongoReadStore } from '../../src/infrastructure/read-store/mongo/mongo-read-store';
import { describeWhenEngine } from '../support/engines';
import { describeReadStoreContract } from './read-store.contract';

/**
 * Needs a MongoDB replica set (transactions), e.g. MONGODB_URL=mongodb://localhost:27017/?replicaSet=rs0 from
 * docker-compose (mongod --replSet rs0, then rs.initiate()). Each run uses, then drops, its own database.
 */
describeWhenEngine('MONGODB_URL', 'ReadStore contract: MongoDB', (url) => {
  describeReadStoreContract('MongoReadStore', async () => {
    const database = `cairn_contract_${process.pid}_${Date.now().toString(36)}`;
    const store = new MongoReadStore(url, { database });
    await store.connect();
    return {
      store,
      cleanup: async () => {
        try {
          await store.dropDatabase();
        } finally {
          await store.close();
        }
      },
    };
  });
});
