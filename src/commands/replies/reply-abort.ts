import type { SystemStatusCode } from './outcome-policy';

/** A reply that cannot be completed safely: becomes a typed system_status (spec §2.8) and a ReplyFailed event. */
export class ReplyAbort extends Error {
  constructor(
    readonly code: SystemStatusCode,
    readonly detail: string,
    /** The reply's assistant message is already stored: the request can never be processed again (spec §3). */
    readonly assistantMessagePersisted = false,
    /** What the model provider asked to wait (its Retry-After), for codes whose policy honours it. */
    readonly providerRetryAfterMs: number | null = null,
  ) {
    super(`${code}: ${detail}`);
    this.name = 'ReplyAbort';
  }
}
