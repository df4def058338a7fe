/** The scale bench's embeddings server in a process of its own (so it never shares the ingestion's event loop). */
import { startEmbeddingServer } from './embedding-server';

void startEmbeddingServer().then((server) => {
  process.send?.({ url: server.url });
  process.once('disconnect', () => void server.close().then(() => process.exit(0)));
});
