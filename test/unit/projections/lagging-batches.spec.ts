import {
  BULK_WAIT_MS,
  LAG_BATCH_START,
  LAG_WAIT_MS,
  LaggingBatches,
} from '../../../src/projections/lagging-batches';

const BATCH = 5000;
const headAt = (position: number) => ({ headPosition: async () => position });

describe('batches that grow while a projection lags', () => {
  afterEach(() => jest.useRealTimers());

  it('a projection that does not lag never waits', async () => {
    const batches = new LaggingBatches(BATCH);
    expect(await batches.shouldWait('memory', 100, headAt(101))).toBe(false);
  });

  it('after steps that found events, waits for a batch doubling up to the batch size', async () => {
    const batches = new LaggingBatches(BATCH);
    batches.grew('memory', 8);
    expect(await batches.shouldWait('memory', 100, headAt(100 + LAG_BATCH_START - 1))).toBe(true);
    expect(await batches.shouldWait('memory', 100, headAt(100 + LAG_BATCH_START))).toBe(false);
    expect(await batches.shouldWait('memory', 100, headAt(100))).toBe(false);
    batches.grew('memory', LAG_BATCH_START);
    expect(await batches.shouldWait('memory', 0, headAt(LAG_BATCH_START * 2 - 1))).toBe(true);
    for (let n = 0; n < 20; n++) batches.grew('memory', BATCH);
    expect(await batches.shouldWait('memory', 0, headAt(BATCH - 1))).toBe(true);
    expect(await batches.shouldWait('memory', 0, headAt(BATCH))).toBe(false);
    batches.caughtUp('memory');
    expect(await batches.shouldWait('memory', 0, headAt(1))).toBe(false);
  });

  it('waits at most LAG_WAIT_MS since the last step', async () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const batches = new LaggingBatches(BATCH);
    batches.grew('memory', 8);
    jest.setSystemTime(1_000_000 + LAG_WAIT_MS - 1);
    expect(await batches.shouldWait('memory', 0, headAt(1))).toBe(true);
    jest.setSystemTime(1_000_000 + LAG_WAIT_MS);
    expect(await batches.shouldWait('memory', 0, headAt(1))).toBe(false);
  });

  it('never waits while anyone waits for the projection', async () => {
    const batches = new LaggingBatches(BATCH);
    batches.grew('memory', 8);
    const during = await batches.waiting(() => batches.shouldWait('memory', 0, headAt(1)));
    expect(during).toBe(false);
    expect(await batches.shouldWait('memory', 0, headAt(1))).toBe(true);
  });

  it('during a bulk load, waits for its goal even when nothing is pending yet, for up to BULK_WAIT_MS', async () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const batches = new LaggingBatches(BATCH);
    batches.grew('memory', 8);
    expect(await batches.shouldWait('memory', 100, headAt(100))).toBe(false);
    const bulk = batches.bulk();
    expect(await batches.shouldWait('memory', 100, headAt(100))).toBe(true);
    expect(await batches.shouldWait('memory', 100, headAt(100 + LAG_BATCH_START - 1))).toBe(true);
    expect(await batches.shouldWait('memory', 100, headAt(100 + LAG_BATCH_START))).toBe(false);
    jest.setSystemTime(1_000_000 + LAG_WAIT_MS);
    expect(await batches.shouldWait('memory', 100, headAt(101))).toBe(true);
    jest.setSystemTime(1_000_000 + BULK_WAIT_MS - 1);
    expect(await batches.shouldWait('memory', 100, headAt(100))).toBe(true);
    jest.setSystemTime(1_000_000 + BULK_WAIT_MS);
    expect(await batches.shouldWait('memory', 100, headAt(100))).toBe(false);
    bulk.end();
    batches.grew('memory', 8);
    expect(await batches.shouldWait('memory', 100, headAt(100))).toBe(false);
  });

  it('a bulk load never makes a step wait while anyone waits, nor a projection that does not lag', async () => {
    const batches = new LaggingBatches(BATCH);
    const bulk = batches.bulk();
    expect(await batches.shouldWait('memory', 100, headAt(100))).toBe(false);
    batches.grew('memory', 8);
    expect(await batches.waiting(() => batches.shouldWait('memory', 100, headAt(100)))).toBe(false);
    bulk.end();
  });

  it('ending a bulk load twice ends it once: another load still in progress keeps its effect', async () => {
    const batches = new LaggingBatches(BATCH);
    batches.grew('memory', 8);
    const first = batches.bulk();
    const second = batches.bulk();
    first.end();
    first.end();
    expect(await batches.shouldWait('memory', 100, headAt(100))).toBe(true);
    second.end();
    expect(await batches.shouldWait('memory', 100, headAt(100))).toBe(false);
  });
});
