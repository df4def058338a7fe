interface Group {
  timer: NodeJS.Timeout;
  wakers: Array<() => void>;
}

/**
 * Sleeps that can all be cut short at once (to react to a local write without waiting for the next poll).
 * Sleeps of the same length share one timer: a sleep joining a pending one ends with it (so possibly sooner).
 * Loops polling with the same interval thus wake together, in one turn of the event loop, and can share what
 * they read (the projection runner reads the event log once for all its projections).
 */
export class WakeableSleep {
  private readonly groups = new Map<number, Group>();

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      let group = this.groups.get(ms);
      if (group === undefined) {
        const created: Group = { timer: setTimeout(() => this.end(ms, created), ms), wakers: [] };
        this.groups.set(ms, created);
        group = created;
      }
      group.wakers.push(resolve);
    });
  }

  wakeAll(): void {
    for (const [ms, group] of [...this.groups]) {
      clearTimeout(group.timer);
      this.end(ms, group);
    }
  }

  private end(ms: number, group: Group): void {
    if (this.groups.get(ms) === group) this.groups.delete(ms);
    for (const wake of group.wakers) wake();
  }
}
