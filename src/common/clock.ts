/** The source of "now", injectable so tests can move time. */
export abstract class Clock {
  abstract now(): Date;
  nowIso(): string {
    return this.now().toISOString();
  }
  nowMs(): number {
    return this.now().getTime();
  }
}

export class SystemClock extends Clock {
  now(): Date {
    return new Date();
  }
}
