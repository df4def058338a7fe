import type { ChatTool, ChatToolCall } from '../../ai/openai-gateway';
import type { JsonValue } from '../../ai/reply-model-contract';

/**
 * The outcome of one successful assistant tool run, as drafting and review see it and the receipt binds it:
 * the output is already validated against the tool's output schema and projected to its customer-safe fields.
 * It stays untrusted data (spec §4.6 rule 10).
 */
export interface ToolEvidence {
  /** What claims cite: `tool-run:<tool_run_id>`. */
  reference_id: string;
  tool_key: string;
  tool_run_id: number;
  /** Canonical SHA-256 of the output schema the output passed. */
  output_schema_sha256: string;
  /** Canonical SHA-256 of the validated input. */
  input_sha256: string;
  output: JsonValue;
  /** Canonical SHA-256 of the projected output. */
  output_sha256: string;
}

/** The tools one reply may use: what the composer is offered, the call budget, and how a call is run. */
export interface ReplyToolbox {
  offered: readonly ChatTool[];
  /** Tool calls allowed per reply; asking for more is `assistant_tool_limit_reached`. */
  maxCalls: number;
  /** Runs (or reuses) one call; throws a ReplyAbort with the tool's typed code when it cannot be used safely. */
  run(call: ChatToolCall, signal?: AbortSignal): Promise<ToolEvidence>;
}
