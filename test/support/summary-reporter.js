'use strict';
/**
 * Prints one plain closing line that any CI can read: "Tests: N passed, N failed, N skipped".
 * (Jest's own summary says "N passed, N total".)
 */
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    process.stdout.write(
      `\nTests: ${results.numPassedTests} passed, ${results.numFailedTests} failed, ${skipped} skipped\n`,
    );
  }
}
module.exports = SummaryReporter;
