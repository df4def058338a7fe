/** Options of one helper call. */
export interface CallOptions {
  /** Cancels the call, its retries and its waits; the call rejects with the signal's reason. */
  signal?: AbortSignal;
}
