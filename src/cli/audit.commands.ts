import { readFileSync } from 'node:fs';
import { Command, Option } from 'nest-commander';
import { StreamAuditor, type AuditReport, type LogAnchor } from '../audit/stream-auditor';
import type { StreamHeadEntry } from '../audit/stream-heads';
import { TraceVolume } from '../audit/trace-volume';
import { ConflictError, NotFoundError, ValidationFailedError } from '../common/errors';
import { expectArgs, parseId } from './cli-args';
import { JsonCommand } from './json-command';

@Command({
  name: 'audit:stream',
  arguments: '<STREAM>',
  description: "Print a stream's events with their hash chain",
})
export class AuditStreamCommand extends JsonCommand {
  constructor(private readonly auditor: StreamAuditor) {
    super();
  }

  protected execute(params: string[]): Promise<object> {
    expectArgs(params, 1, 'audit:stream STREAM');
    return this.auditor.stream(params[0]);
  }
}

@Command({
  name: 'audit:verify',
  description:
    "Check every event's hash from its content and the log chain in the global order, each stream's revisions " +
    '(0..n), that the store holds no event outside the log and that every stream reads as the log holds it, and ' +
    'with --anchor that the log still holds an anchor from audit:anchor (a truncated log); fails naming the first break',
})
export class AuditVerifyCommand extends JsonCommand {
  constructor(private readonly auditor: StreamAuditor) {
    super();
  }

  protected async execute(params: string[], options: { anchor?: LogAnchor }): Promise<object> {
    expectArgs(params, 0, 'audit:verify [--anchor FILE|JSON]');
    const report = await this.auditor.verify(
      (message) => process.stderr.write(`${message}\r`),
      options.anchor,
    );
    throwOnBreak(report);
    return {
      verified: true,
      streams: report.streams,
      events: report.events,
      events_before_log_chain: report.events_before_log_chain,
      log_head: report.log_head,
      anchor: report.anchor,
      erased: report.erased,
    };
  }

  @Option({
    flags: '--anchor <file-or-json>',
    description: 'an anchor from audit:anchor (a file or the JSON itself)',
  })
  parseAnchor(value: string): LogAnchor {
    return parseAnchor(value);
  }
}

/** The first thing audit:verify found broken, as the error it exits 1 with. */
function throwOnBreak(report: AuditReport): void {
  const broken = report.first_break;
  if (broken) {
    throw new ConflictError(
      'hash_chain_broken',
      `stream ${broken.stream} is broken at revision ${broken.revision} (${broken.reason})`,
      [{ message: broken.reason, ...broken }],
    );
  }
  const log = report.log_break;
  if (log) {
    throw new ConflictError(
      'log_chain_broken',
      `the log chain is broken at position ${log.position} (stream ${log.stream}, revision ${log.revision}: ` +
        `${log.reason}): an event, a stream's tail or a whole stream before it was removed or rewritten`,
      [{ message: log.reason, ...log }],
    );
  }
  const counts = report.count_mismatch;
  if (counts) {
    throw new ConflictError(
      'event_count_mismatch',
      counts.reason === 'events_outside_the_log'
        ? `the store holds ${counts.stored_events} events, the log ${counts.log_events}: ` +
            'events were moved out of the global order'
        : `stream ${counts.stream} reads ${counts.stream_events} events, the log holds ${counts.log_events}` +
            (counts.revision === null ? '' : ` (first difference at revision ${counts.revision})`),
      [{ message: counts.reason, ...counts }],
    );
  }
  if (report.anchor && !report.anchor.holds) {
    const { position, reason, stream_break } = report.anchor;
    throw new ConflictError('anchor_not_held', `anchor at position ${position}: ${reason}`, [
      { message: reason ?? '', position, ...(stream_break ?? {}) },
    ]);
  }
}

@Command({
  name: 'audit:anchor',
  description:
    'The verified heads → {position, global_hash, events, streams, stream_heads_sha256, stream_heads, ' +
    "anchored_at}: the log chain head (null on EventStoreDB) and every stream's last revision, hash and position; " +
    'keep it elsewhere',
})
export class AuditAnchorCommand extends JsonCommand {
  constructor(private readonly auditor: StreamAuditor) {
    super();
  }

  protected async execute(params: string[]): Promise<object> {
    expectArgs(params, 0, 'audit:anchor');
    const head = await this.auditor.anchor();
    if (head === null) throw new NotFoundError('the store holds no events yet', 'log_chain_empty');
    return { ...head, anchored_at: new Date().toISOString() };
  }
}

function parseAnchor(value: string): LogAnchor {
  const invalid = () =>
    new ValidationFailedError('--anchor must be the JSON of audit:anchor, or a file holding it', [
      {
        field: '--anchor',
        message:
          '{"position": N, "global_hash": "<64 hex>" | null, "stream_heads": [[stream, revision, hash, position]…]' +
          ' and/or "stream_heads_sha256": "<64 hex>"}',
      },
    ]);
  let raw: unknown;
  try {
    raw = JSON.parse(value.trimStart().startsWith('{') ? value : readFileSync(value, 'utf8'));
  } catch {
    throw invalid();
  }
  if (typeof raw !== 'object' || raw === null) throw invalid();
  const anchor = raw as Partial<Record<keyof LogAnchor, unknown>>;
  const hex = (v: unknown): v is string => typeof v === 'string' && /^[0-9a-f]{64}$/.test(v);
  const position = anchor.position;
  const global_hash = anchor.global_hash ?? null;
  const heads = anchor.stream_heads;
  const digest = anchor.stream_heads_sha256;
  if (
    typeof position !== 'number' ||
    !Number.isSafeInteger(position) ||
    position < 1 ||
    (global_hash !== null && !hex(global_hash)) ||
    (heads !== undefined && !isHeadEntries(heads)) ||
    (digest !== undefined && !hex(digest)) ||
    (global_hash === null && heads === undefined && digest === undefined)
  ) {
    throw invalid();
  }
  return {
    position,
    global_hash,
    ...(heads !== undefined ? { stream_heads: heads as StreamHeadEntry[] } : {}),
    ...(digest !== undefined ? { stream_heads_sha256: digest as string } : {}),
  };
}

function isHeadEntries(value: unknown): boolean {
  const count = (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
  return (
    Array.isArray(value) &&
    value.every(
      (e: unknown) =>
        Array.isArray(e) &&
        e.length === 4 &&
        typeof e[0] === 'string' &&
        count(e[1]) &&
        typeof e[2] === 'string' &&
        count(e[3]),
    )
  );
}

@Command({
  name: 'audit:trace-volume',
  arguments: '<ORG>',
  description:
    'Recall traces (searches) and their bytes per connector of an organization → {connectors, total}',
})
export class AuditTraceVolumeCommand extends JsonCommand {
  constructor(private readonly volume: TraceVolume) {
    super();
  }

  protected execute(params: string[], options: { since?: Date }): Promise<object> {
    expectArgs(params, 1, 'audit:trace-volume ORG [--since ISO]');
    return this.volume.report(parseId(params[0], 'ORG'), options.since ?? null);
  }

  @Option({ flags: '--since <iso>', description: 'only traces recorded at or after this ISO 8601 time' })
  parseSince(value: string): Date {
    const at = new Date(value);
    if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(at.getTime())) {
      throw new ValidationFailedError('--since must be an ISO 8601 time', [
        { field: '--since', message: 'ISO 8601 time, e.g. 2026-01-31T00:00:00Z' },
      ]);
    }
    return at;
  }
}
