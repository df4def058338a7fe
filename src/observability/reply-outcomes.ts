import { log } from './log';
import { replyOutcomes } from './metrics';

export interface ReplyOutcomeRecord {
  /** The HTTP request the attempt serves (its `X-Request-Id`: the request's correlation id). */
  request_id: string;
  /** `completed`, or the system_status code the attempt ended with. */
  code: string;
  reply_id: number;
  organization_id: number;
  connector_id: number;
  attempt: number;
  latencyMs: number;
}

/** Every reply attempt's outcome: one log line (ids, code, latency; never the message or the answer) and a count. */
export function recordReplyOutcome(outcome: ReplyOutcomeRecord): void {
  replyOutcomes.inc({ code: outcome.code });
  const fields = {
    request_id: outcome.request_id,
    event: 'reply_outcome',
    code: outcome.code,
    reply_id: outcome.reply_id,
    organization_id: outcome.organization_id,
    connector_id: outcome.connector_id,
    attempt: outcome.attempt,
    latency_ms: Math.round(outcome.latencyMs),
  };
  if (outcome.code === 'completed') log().info(fields, 'reply completed');
  else log().warn(fields, `reply failed: ${outcome.code}`);
}
