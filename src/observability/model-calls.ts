import { log } from './log';
import { modelCallDuration } from './metrics';

/** The role of a model call, told by its response schema (ARCHITECTURE.md "Model contract"). */
export function modelRole(schemaName: string | null): string {
  if (schemaName === null) return 'embeddings';
  if (schemaName === 'cairn_reply_draft') return 'composer';
  if (schemaName === 'cairn_semantic_review') return 'reviewer';
  return schemaName;
}

export interface ModelCallRecord {
  /** The HTTP request the call served, or null (e.g. embeddings computed by a projection). */
  requestId: string | null;
  role: string;
  model: string;
  /** The failure kind (timeout, unreachable, rate_limited, server_error, rejected, malformed, canceled), or null. */
  failure: string | null;
  /** The endpoint's HTTP status, when it answered one. */
  providerStatus: number | null;
  latencyMs: number;
}

/**
 * Every model call in the latency histogram; every failure as one log line (role, model, kind, provider status,
 * latency). Never the prompt, the answer or the key.
 */
export function recordModelCall(call: ModelCallRecord): void {
  modelCallDuration.observe({ role: call.role, outcome: call.failure ?? 'ok' }, call.latencyMs / 1000);
  if (call.failure === null) return;
  log().warn(
    {
      ...(call.requestId === null ? {} : { request_id: call.requestId }),
      event: 'model_call_failed',
      role: call.role,
      model: call.model,
      code: call.failure,
      provider_status: call.providerStatus,
      latency_ms: Math.round(call.latencyMs),
    },
    `model call failed: ${call.role} ${call.failure}`,
  );
}
