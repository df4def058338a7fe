import { NotFoundError, ValidationFailedError } from '../../common/errors';
import type { RecallTraceEvent, RecallTraceRecorded } from '../../events/memory/recall.events';
import type { Decider } from '../shared/decider';
import { recallResults } from '../../events/memory/recall-results';
import { isPrunedTraceData } from '../../infrastructure/event-store/pruned-traces';

export type RecallTraceCommand =
  | { type: 'RecordTrace'; trace: RecallTraceRecorded['data'] }
  /** Usage is accepted only from the connector that made the search, for items the search returned. */
  | {
      type: 'ReportUsage';
      organization_id: number;
      connector_id: number;
      used_item_ids: number[];
      ignored_item_ids: number[];
    };

export type RecallTraceState = {
  trace: RecallTraceRecorded['data'] | null;
  used: number[];
  ignored: number[];
};

export const recallTraceDecider: Decider<RecallTraceCommand, RecallTraceState, RecallTraceEvent> = {
  initialState: () => ({ trace: null, used: [], ignored: [] }),
  evolve: (state, event) =>
    event.type === 'RecallTraceRecorded'
      ? { ...state, trace: event.data }
      : { ...state, used: event.data.used_item_ids, ignored: event.data.ignored_item_ids },
  decide(command, state) {
    if (command.type === 'RecordTrace')
      return state.trace ? [] : [{ type: 'RecallTraceRecorded', data: command.trace }];
    const trace = state.trace;
    // A search trace past its retention keeps only a stub (pruned-traces.ts): nothing to report usage against.
    if (trace && isPrunedTraceData(trace)) {
      throw new NotFoundError(
        'recall trace pruned by retention (CAIRN_TRACE_RETENTION_DAYS)',
        'trace_not_found',
      );
    }
    if (
      !trace ||
      trace.organization_id !== command.organization_id ||
      trace.connector_id !== command.connector_id
    ) {
      throw new NotFoundError('recall trace not found', 'trace_not_found');
    }
    if (command.used_item_ids.length === 0 && command.ignored_item_ids.length === 0) {
      throw new ValidationFailedError('name at least one item in used_item_ids or ignored_item_ids', [
        { field: 'used_item_ids', message: 'used_item_ids and ignored_item_ids are both empty' },
      ]);
    }
    const returned = new Set(recallResults(trace).map((result) => result.memory_item_id));
    const details = [
      ...command.used_item_ids
        .filter((id) => !returned.has(id))
        .map((id) => ({
          field: 'used_item_ids',
          message: `item ${id} was not a result of trace ${trace.trace_id}`,
        })),
      ...command.ignored_item_ids
        .filter((id) => !returned.has(id))
        .map((id) => ({
          field: 'ignored_item_ids',
          message: `item ${id} was not a result of trace ${trace.trace_id}`,
        })),
      ...command.used_item_ids
        .filter((id) => command.ignored_item_ids.includes(id))
        .map((id) => ({
          field: 'ignored_item_ids',
          message: `item ${id} is listed as both used and ignored`,
        })),
    ];
    if (details.length > 0)
      throw new ValidationFailedError('usage must name items of the trace, each once', details);
    return [
      {
        type: 'RecallUsageReported',
        data: {
          trace_id: trace.trace_id,
          organization_id: trace.organization_id,
          used_item_ids: [...new Set(command.used_item_ids)].sort((a, b) => a - b),
          ignored_item_ids: [...new Set(command.ignored_item_ids)].sort((a, b) => a - b),
          previous_used_item_ids: state.used,
          previous_ignored_item_ids: state.ignored,
        },
      },
    ];
  },
};
