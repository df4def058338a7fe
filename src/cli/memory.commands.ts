import { Inject } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Command, Option } from 'nest-commander';
import { ValidationFailedError } from '../common/errors';
import {
  ArchiveMemoryItemCommand,
  type ArchiveMemoryItemResult,
} from '../commands/memory/archive-memory-item.command';
import { listFiles, readFile, type ReadOptions } from '../ingestion/readers/read-documents';
import type { ReadDocument } from '../ingestion/readers/reader-types';
import {
  ReviseMemoryItemCommand,
  type ReviseMemoryItemResult,
} from '../commands/memory/revise-memory-item.command';
import { operatorContext } from '../commands/shared/command-context';
import { websiteUrl } from '../commands/shared/domain-values';
import { OrganizationLoader } from '../commands/shared/organization-loader';
import { StreamCommandExecutor } from '../commands/shared/stream-command-executor';
import type { Audience, AuthorityLevel } from '../events/memory/memory.events';
import { UnsafeContentScanner } from '../safety/unsafe-content/unsafe-content-scanner';
import { STORES, type Stores } from '../infrastructure/stores';
import { EVENT_STORE, type EventStore } from '../infrastructure/event-store/event-store.port';
import { expectArgs, oneOf, parseId } from './cli-args';
import { JsonCommand } from './json-command';
import { listPaths, MemoryIngestRun } from './memory-ingest-run';

const AUDIENCES: readonly Audience[] = ['customer_safe', 'internal'];
const AUTHORITIES: readonly AuthorityLevel[] = ['approved_source', 'reference', 'unverified'];

interface IngestOptions {
  audience?: string;
  authority?: string;
  sourceUri?: string;
  sourceBase?: string;
  title?: string;
  expiresAt?: string;
  allowFlag?: string[];
}

@Command({
  name: 'memory:ingest',
  // Optional in commander's eyes so a missing argument is answered with the JSON usage error, not prose.
  arguments: '[ORG] [PATH...]',
  description:
    'Ingest Markdown, text, HTML, JSON and JSONL files or whole directories → {items, skipped, totals}. ' +
    'Unchanged documents append nothing; changed ones append a revision. Defaults: --audience internal ' +
    '(customers never see a document unless the operator says customer_safe), --authority reference. ' +
    'Audience and authority apply when a document is first ingested. Document keys: file:<directory name>/<path ' +
    'below it> (a single file: file:<parent directory name>/<file name>), #<id or index> for JSON records. ' +
    'Every document is scanned for unsafe content (secrets, keys, card numbers…): one with a finding is refused ' +
    '(listed in "refused" with file, line and flag) unless --allow-flag names its kind or rule.',
})
export class MemoryIngestCommand extends JsonCommand {
  constructor(
    private readonly commands: CommandBus,
    private readonly organizations: OrganizationLoader,
    private readonly executor: StreamCommandExecutor,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(STORES) private readonly stores: Stores,
    private readonly scanner: UnsafeContentScanner,
  ) {
    super();
  }

  protected async execute(params: string[], options: IngestOptions): Promise<object> {
    const usage =
      'memory:ingest ORG PATH... [--audience A] [--authority L] [--source-uri U | --source-base U] [--title T] ' +
      '[--expires-at ISO] [--allow-flag FLAG]...';
    if (params.length < 2) expectArgs(params, 2, usage);
    const organizationId = parseId(params[0], 'ORG');
    const read: ReadOptions = {
      audience: oneOf(options.audience ?? 'internal', AUDIENCES, '--audience'),
      authority_level: oneOf(options.authority ?? 'reference', AUTHORITIES, '--authority'),
      expires_at: options.expiresAt === undefined ? null : isoTimestamp(options.expiresAt, '--expires-at'),
      title: options.title === undefined ? null : title(options.title),
      source_uri: options.sourceUri === undefined ? null : websiteUrl(options.sourceUri, '--source-uri'),
      source_base: options.sourceBase === undefined ? null : sourceBase(options.sourceBase),
    };
    await this.organizations.require(organizationId);
    const files = await listPaths(params.slice(1));
    if (read.title !== null || read.source_uri !== null) {
      const single =
        files.length === 1 &&
        params.length === 2 &&
        ['markdown', 'text', 'html'].includes(files[0].format ?? '');
      if (!single) {
        throw new ValidationFailedError('--title and --source-uri apply to one Markdown, text or HTML file', [
          {
            field: read.title !== null ? '--title' : '--source-uri',
            message: 'only with a single document file',
          },
        ]);
      }
    }
    const run = new MemoryIngestRun(
      this.commands,
      this.executor,
      this.events,
      this.stores,
      this.scanner,
      options.allowFlag ?? [],
    );
    return {
      organization_id: organizationId,
      ...(await run.run(organizationId, files, read, operatorContext())),
    };
  }

  @Option({ flags: '--audience <audience>', description: 'customer_safe | internal (default internal)' })
  parseAudience(value: string): string {
    return value;
  }

  @Option({
    flags: '--authority <level>',
    description: 'approved_source | reference | unverified (default reference)',
  })
  parseAuthority(value: string): string {
    return value;
  }

  @Option({
    flags: '--source-base <url>',
    description:
      'for folders: a document without a URL of its own gets this base + its path below the folder',
  })
  parseSourceBase(value: string): string {
    return value;
  }

  @Option({ flags: '--source-uri <url>', description: 'the public URL of the document (one file only)' })
  parseSourceUri(value: string): string {
    return value;
  }

  @Option({ flags: '--title <title>', description: 'the title (one file only; default: from the file)' })
  parseTitle(value: string): string {
    return value;
  }

  @Option({ flags: '--expires-at <iso>', description: 'when the documents stop being valid (ISO 8601)' })
  parseExpiresAt(value: string): string {
    return value;
  }

  @Option({
    flags: '--allow-flag <flag>',
    description:
      'accept an unsafe-content finding of this kind or rule (e.g. password_hash, aws_access_key_id); repeatable; ' +
      'recorded in the ingested event with the operator',
  })
  parseAllowFlag(value: string, previous: string[] = []): string[] {
    if (!/^[a-z0-9_@/.-]{1,100}$/.test(value)) {
      throw new ValidationFailedError('--allow-flag names a flag kind or rule', [
        { field: '--allow-flag', message: 'a kind or rule name such as secret or aws_access_key_id' },
      ]);
    }
    return [...previous, value];
  }
}

@Command({
  name: 'memory:revise',
  arguments: '[ORG] [ITEM] [PATH]',
  description:
    "Revise a memory item from one file's content → {memory_item_id, revision, status}; the item's title is kept " +
    'unless the file (or --title) gives one. The same title and content records nothing (dates included)',
})
export class MemoryReviseCommand extends JsonCommand {
  constructor(private readonly commands: CommandBus) {
    super();
  }

  protected async execute(
    params: string[],
    options: { title?: string; expiresAt?: string },
  ): Promise<object> {
    expectArgs(params, 3, 'memory:revise ORG ITEM PATH [--title T] [--expires-at ISO]');
    const organizationId = parseId(params[0], 'ORG');
    const itemId = parseId(params[1], 'ITEM');
    const given = options.title === undefined ? null : title(options.title);
    const expiresAt =
      options.expiresAt === undefined ? null : isoTimestamp(options.expiresAt, '--expires-at');
    const entry = await readOneDocument(params[2], given);
    return this.commands.execute<ReviseMemoryItemCommand, ReviseMemoryItemResult>(
      new ReviseMemoryItemCommand(
        organizationId,
        itemId,
        {
          content: entry.document.content,
          format: entry.document.format,
          title: entry.explicit_title ? entry.document.title : null,
          source_date: entry.document.source_date,
          expires_at: expiresAt,
        },
        operatorContext(),
      ),
    );
  }

  @Option({ flags: '--title <title>', description: "the new title (default: the file's, else the item's)" })
  parseTitle(value: string): string {
    return value;
  }

  @Option({ flags: '--expires-at <iso>', description: 'when the item stops being valid (ISO 8601)' })
  parseExpiresAt(value: string): string {
    return value;
  }
}

@Command({
  name: 'memory:archive',
  arguments: '[ORG] [ITEM]',
  description: 'Archive a memory item (it leaves search) → {memory_item_id, archived, changed}',
})
export class MemoryArchiveCommand extends JsonCommand {
  constructor(private readonly commands: CommandBus) {
    super();
  }

  protected execute(params: string[]): Promise<object> {
    expectArgs(params, 2, 'memory:archive ORG ITEM');
    return this.commands.execute<ArchiveMemoryItemCommand, ArchiveMemoryItemResult>(
      new ArchiveMemoryItemCommand(parseId(params[0], 'ORG'), parseId(params[1], 'ITEM'), operatorContext()),
    );
  }
}

/** The one document a file holds (a JSON file with several records, a directory or a skip is a 422). */
async function readOneDocument(path: string, titleOverride: string | null): Promise<ReadDocument> {
  const files = await listFiles(path);
  const invalid = (message: string) =>
    new ValidationFailedError(`${path}: ${message}`, [{ field: 'PATH', message }]);
  if (files.length !== 1 || files[0].path !== path) throw invalid('must be one file');
  const documents: ReadDocument[] = [];
  for await (const entry of readFile(files[0], {
    audience: 'internal',
    authority_level: 'reference',
    expires_at: null,
    title: titleOverride,
  })) {
    if (entry.kind === 'skipped') throw invalid(`${entry.reason} (${entry.message})`);
    documents.push(entry);
    if (documents.length > 1) throw invalid('holds more than one document');
  }
  if (documents.length === 0) throw invalid('holds no document');
  return documents[0];
}

function isoTimestamp(value: string, field: string): string {
  const ms = Date.parse(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(ms)) {
    throw new ValidationFailedError(`${field} must be an ISO 8601 timestamp`, [
      { field, message: 'ISO 8601, e.g. 2026-12-31 or 2026-12-31T23:59:59Z' },
    ]);
  }
  return new Date(ms).toISOString();
}

function title(value: string): string {
  const trimmed = value.trim();
  if (trimmed.length === 0 || trimmed.length > 300 || /\p{Cc}/u.test(trimmed)) {
    throw new ValidationFailedError('--title must be 1 to 300 characters without control characters', [
      { field: '--title', message: '1 to 300 printable characters' },
    ]);
  }
  return trimmed;
}

/** A public http(s) base URL, with a trailing `/` so that paths resolve below it. */
function sourceBase(value: string): string {
  const url = websiteUrl(value, '--source-base');
  return url.endsWith('/') ? url : `${url}/`;
}
