import type { DomainEvent } from '../domain-event';

/**
 * One assistant tool run, on `tool-run-{digest}` (streams.toolRun), keyed by the SHA-256 of (organization,
 * connector, reply, tool key, canonical input): the same call in a later attempt of the same reply reuses it.
 * Only the projected, customer-safe output is stored; a rejected output is recorded by reason and path, never by
 * value.
 */
type RunKey = {
  tool_run_id: number;
  organization_id: number;
  connector_id: number;
  reply_id: number;
  tool_key: string;
};

export type ToolRunStarted = DomainEvent<
  'ToolRunStarted',
  RunKey & {
    definition_sha256: string;
    input: Record<string, unknown>;
    input_sha256: string;
    started_at: string;
  }
>;

export type ToolRunSucceeded = DomainEvent<
  'ToolRunSucceeded',
  RunKey & { output: Record<string, unknown>; output_sha256: string; finished_at: string }
>;

export type ToolRunFailed = DomainEvent<
  'ToolRunFailed',
  RunKey & {
    /** `output_unsafe` (the output broke the contract) or `unavailable` (transport, status, timeout). */
    failure: 'output_unsafe' | 'unavailable';
    reason: string;
    path: string | null;
    finished_at: string;
  }
>;

export type ToolRunEvent = ToolRunStarted | ToolRunSucceeded | ToolRunFailed;
