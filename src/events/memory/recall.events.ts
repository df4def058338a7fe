import type { DomainEvent } from '../domain-event';

export type RecallMethod = 'lexical' | 'semantic' | 'hybrid';

export type RecallResult = {
  memory_item_id: number;
  memory_source_id: number;
  revision: number;
  memory_chunk_ids: number[];
  score: number;
  method: RecallMethod;
};

/**
 * A trace's results as columns: the n-th result is the n-th entry of every array. The same facts as a list of
 * RecallResult, without each result repeating six key names: a limit-100 trace is ~5 KB of JSON instead of
 * ~14 KB, which every search serializes, hashes and compresses before it answers (recall-results.ts reads both).
 */
export type RecallResultColumns = {
  memory_item_ids: number[];
  memory_source_ids: number[];
  revisions: number[];
  memory_chunk_ids: number[][];
  scores: number[];
  methods: RecallMethod[];
};

/**
 * Why a trace was recorded: a connector's search (`search`, pruned after CAIRN_TRACE_RETENTION_DAYS) or a reply's
 * evidence recall (`reply`, kept: the reply's receipt binds it). Absent in traces recorded before retention existed
 * (kept).
 */
export type RecallPurpose = 'search' | 'reply';

/** A search a connector made: what it asked and exactly what it was shown (replies and usage reports bind to it). */
export type RecallTraceRecorded = DomainEvent<
  'RecallTraceRecorded',
  {
    trace_id: number;
    organization_id: number;
    connector_id: number;
    client_key: string;
    query: string;
    visibility: 'tool_private' | 'organization_internal' | null;
    limit: number;
    /** The results as a list: traces recorded before result_columns (still read). */
    results?: RecallResult[];
    /** The results as columns: every trace recorded now. */
    result_columns?: RecallResultColumns;
    index_revision: string;
    purpose?: RecallPurpose;
  }
>;

/**
 * Which results helped. A later report for the same trace replaces the earlier one; the event carries the report
 * it replaces, so usage counts can be adjusted without keeping every trace in a read model.
 */
export type RecallUsageReported = DomainEvent<
  'RecallUsageReported',
  {
    trace_id: number;
    organization_id: number;
    used_item_ids: number[];
    ignored_item_ids: number[];
    previous_used_item_ids: number[];
    previous_ignored_item_ids: number[];
  }
>;

export type RecallTraceEvent = RecallTraceRecorded | RecallUsageReported;
