import { ConflictError } from '../../common/errors';
import type { ToolRunEvent, ToolRunStarted, ToolRunSucceeded } from '../../events/tools/tool-run.events';
import type { Decider } from '../shared/decider';

/**
 * One tool run (spec §4.6 rule 10): started once; finished once, by success (projected output) or failure. A
 * started run that never finished (its process died) may be started again by a later attempt of the reply: the
 * call is read-only, so repeating it is safe. A failed run is retried the same way; a succeeded one is reused.
 */
export type ToolRunCommand =
  | { type: 'Start'; run: ToolRunStarted['data'] }
  | { type: 'Succeed'; output: Record<string, unknown>; output_sha256: string; now_ms: number }
  | {
      type: 'Fail';
      failure: 'output_unsafe' | 'unavailable';
      reason: string;
      path: string | null;
      now_ms: number;
    };

export type ToolRunState = {
  status: 'none' | 'started' | 'succeeded' | 'failed';
  run: ToolRunStarted['data'] | null;
  result: ToolRunSucceeded['data'] | null;
};

const iso = (ms: number): string => new Date(ms).toISOString();

export const toolRunDecider: Decider<ToolRunCommand, ToolRunState, ToolRunEvent> = {
  initialState: () => ({ status: 'none', run: null, result: null }),

  evolve(state, event) {
    switch (event.type) {
      case 'ToolRunStarted':
        return { status: 'started', run: event.data, result: null };
      case 'ToolRunSucceeded':
        return { ...state, status: 'succeeded', result: event.data };
      case 'ToolRunFailed':
        return { ...state, status: 'failed' };
    }
  },

  decide(command, state) {
    if (command.type === 'Start') {
      if (state.status === 'succeeded') return [];
      return [{ type: 'ToolRunStarted', data: command.run }];
    }
    if (state.status !== 'started' || state.run === null) {
      throw new ConflictError('tool_run_not_started', `the tool run is ${state.status}, not started`);
    }
    const { tool_run_id, organization_id, connector_id, reply_id, tool_key } = state.run;
    const key = { tool_run_id, organization_id, connector_id, reply_id, tool_key };
    if (command.type === 'Succeed') {
      return [
        {
          type: 'ToolRunSucceeded',
          data: {
            ...key,
            output: command.output,
            output_sha256: command.output_sha256,
            finished_at: iso(command.now_ms),
          },
        },
      ];
    }
    return [
      {
        type: 'ToolRunFailed',
        data: {
          ...key,
          failure: command.failure,
          reason: command.reason.slice(0, 500),
          path: command.path,
          finished_at: iso(command.now_ms),
        },
      },
    ];
  },
};
