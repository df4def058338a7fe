/**
 * The scan thread's worker (scan-thread.ts starts it): answers each `ScanRequest`, on the port it was given, with
 * the flags scanFields gives, or the error it threw. Requests are scanned as they come (a scan awaits secretlint between detectors).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { scanFields } from './scan-fields';
import type { ScanReply, ScanRequest, ScanWorkerData } from './scan-thread';

const port = parentPort;
if (port === null) throw new Error('scan-worker runs as a worker thread (scan-thread.ts)');
const { replies } = workerData as ScanWorkerData;
port.on('message', (request: ScanRequest) => {
  const reply = (message: ScanReply): void => replies.postMessage(message);
  scanFields(request.fields, request.budgetMs).then(
    (flags) => reply({ id: request.id, flags }),
    (error: unknown) =>
      reply({ id: request.id, error: error instanceof Error ? error.message : String(error) }),
  );
});
