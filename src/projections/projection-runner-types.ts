/** The projection runner's options and status report (projection-runner.ts). */
export interface ProjectionRunnerOptions {
  /** Unique per process (a lease owner). */
  owner: string;
  leaseTtlMs?: number;
  /** How often a lease holder looks for new events when idle. */
  pollIntervalMs?: number;
  /** How often a process without the lease checks whether it can take it over. */
  standbyIntervalMs?: number;
  batchSize?: number;
  onError?: (projection: string, error: unknown) => void;
}

export interface ProjectionStatus {
  name: string;
  version: number;
  position: number;
  checkpoint_version: number | null;
  head: number;
  lag: number;
  lease_owner: string | null;
  lease_expires_at: string | null;
}

/**
 * A checkpoint-only move waits at most this long or this many events before it is written (under a steady stream
 * of events no projection applies, such as recall traces, each projection writes its checkpoint once a second).
 */
