/**
 * Runs indexQueryRows (index-queries.ts) in a process of its own: receives an IndexQueriesRequest over IPC and answers
 * once (child-request.ts). A fresh process measures the index, not the heap of whoever asks:
 * a cold query allocates its terms' rows (~1.3 MB at 1M chunks), the garbage collections they cause mark the
 * whole live heap, and the scale bench's own process still held what ingestion left (its cold 10-item mean was
 * 18.3 ms where a fresh process measured 8–10 ms on the same directory; with 570 MB of objects kept, 83 ms).
 */
import { answerOnce } from '../child-request';
import { indexQueryRows } from './index-queries';

export interface IndexQueriesRequest {
  sqliteFile: string;
  organizationId: number;
  queries: string[];
  label: string;
}

answerOnce((request: IndexQueriesRequest) =>
  indexQueryRows(request.sqliteFile, request.organizationId, request.queries, request.label),
);
