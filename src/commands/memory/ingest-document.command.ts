import type { Audience, AuthorityLevel } from '../../events/memory/memory.events';
import type { CommandContext } from '../shared/command-context';

export interface DocumentInput {
  /** Stable identity of the document within the organization (a path or URI): re-ingesting it revises the item. */
  document_key: string;
  title: string;
  content: string;
  format: 'markdown' | 'text';
  /** Item type, e.g. `document`, `faq`, `policy`. */
  type: string;
  audience: Audience;
  authority_level: AuthorityLevel;
  source_label: string;
  /**
   * The source this document shares with others (the records of one JSON or JSONL file: the file's key), registered
   * once for all of them; absent or null: the document is its own source. Fixed by a document's first claim.
   */
  source_key?: string | null;
  source_uri: string | null;
  source_date: string | null;
  effective_at: string | null;
  expires_at: string | null;
  summary: string | null;
}

export interface IngestDocumentOptions {
  /**
   * Wait for the read models to apply the document before returning (read-your-writes; default true). A bulk
   * ingestion passes false and waits once at the end (`StreamCommandExecutor.settle`).
   */
  waitForReadModels?: boolean;
  /**
   * Unsafe-content flags (kinds such as `secret`, or rules such as `aws_access_key_id`) the operator accepts
   * (`memory:ingest --allow-flag`). A document with any other finding is refused; allowed findings are recorded in
   * the event (`unsafe_flags_allowed`).
   */
  allowFlags?: readonly string[];
}

export class IngestDocumentCommand {
  constructor(
    readonly organizationId: number,
    readonly document: DocumentInput,
    readonly context: CommandContext,
    readonly options: IngestDocumentOptions = {},
  ) {}
}

export interface IngestDocumentResult {
  memory_item_id: number;
  memory_source_id: number;
  revision: number;
  /** `unchanged`: the same content was ingested before; nothing was appended. */
  status: 'created' | 'revised' | 'unchanged';
  chunks: number;
}
