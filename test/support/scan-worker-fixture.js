/*
 * A scan thread worker for scan-thread.spec.ts: the compiled scan worker's protocol (dist/, which `npm test` builds
 * first), except that a record whose content is "hang" never answers (a detector that never returns), one whose
 * content is "crash" throws in the worker (an uncaught error kills the thread) and one whose content is "fail" is
 * answered with an error (a scan that threw).
 */
const { parentPort, workerData } = require('node:worker_threads');
const { join } = require('node:path');
const { scanFields } = require(join(__dirname, '../../dist/safety/unsafe-content/scan-fields.js'));

parentPort.on('message', (request) => {
  if (request.fields.content === 'hang') for (;;);
  if (request.fields.content === 'crash') throw new Error('detector blew up');
  if (request.fields.content === 'fail') {
    workerData.replies.postMessage({ id: request.id, error: 'the scan threw' });
    return;
  }
  scanFields(request.fields, request.budgetMs).then((flags) =>
    workerData.replies.postMessage({ id: request.id, flags }),
  );
});
