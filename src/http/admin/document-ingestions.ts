import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { AppError, NotFoundError } from '../../common/errors';
import {
  IngestDocumentCommand,
  type DocumentInput,
  type IngestDocumentResult,
} from '../../commands/memory/ingest-document.command';
import type { CommandContext } from '../../commands/shared/command-context';
import { OrganizationLoader } from '../../commands/shared/organization-loader';
import { log } from '../../observability/log';

/** One document's outcome in an ingestion. */
export type IngestionOutcome =
  | ({ document_key: string; outcome: 'ingested' } & IngestDocumentResult)
  | {
      document_key: string;
      outcome: 'refused';
      error: { code: string; message: string; details: unknown[] };
    };

export interface Ingestion {
  ingestion_id: string;
  organization_id: number;
  status: 'running' | 'completed' | 'failed';
  total: number;
  done: number;
  documents: IngestionOutcome[];
  started_at: string;
  finished_at: string | null;
}

/** Finished ingestions this process remembers (the oldest forgotten first). */
const MAX_REMEMBERED = 200;

/**
 * Admin document uploads: each upload becomes an ingestion that runs document by document through the same
 * IngestDocumentCommand as `memory:ingest`, in the background; its progress (done of total, each document's
 * outcome) is kept in this process's memory and read by id. A restart forgets progress, never documents: each
 * ingested document is an event when `done` counts it.
 */
@Injectable()
export class DocumentIngestions {
  private readonly runs = new Map<string, Ingestion>();

  constructor(
    private readonly commands: CommandBus,
    private readonly organizations: OrganizationLoader,
  ) {}

  async start(
    organizationId: number,
    documents: DocumentInput[],
    allowFlags: string[],
    context: CommandContext,
  ): Promise<Ingestion> {
    await this.organizations.require(organizationId);
    const ingestion: Ingestion = {
      ingestion_id: `ing_${randomUUID()}`,
      organization_id: organizationId,
      status: 'running',
      total: documents.length,
      done: 0,
      documents: [],
      started_at: new Date().toISOString(),
      finished_at: null,
    };
    this.remember(ingestion);
    void this.run(ingestion, documents, allowFlags, context);
    return { ...ingestion, documents: [...ingestion.documents] };
  }

  get(organizationId: number, ingestionId: string): Ingestion {
    const found = this.runs.get(ingestionId);
    if (!found || found.organization_id !== organizationId) {
      throw new NotFoundError('ingestion not found (or forgotten by a restart)', 'ingestion_not_found');
    }
    return { ...found, documents: [...found.documents] };
  }

  private async run(
    ingestion: Ingestion,
    documents: DocumentInput[],
    allowFlags: string[],
    context: CommandContext,
  ): Promise<void> {
    try {
      for (const document of documents) {
        try {
          const result = await this.commands.execute<IngestDocumentCommand, IngestDocumentResult>(
            new IngestDocumentCommand(ingestion.organization_id, document, context, { allowFlags }),
          );
          ingestion.documents.push({ document_key: document.document_key, outcome: 'ingested', ...result });
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          ingestion.documents.push({
            document_key: document.document_key,
            outcome: 'refused',
            error: { code: error.code, message: error.message, details: error.details },
          });
        }
        ingestion.done++;
      }
      ingestion.status = 'completed';
    } catch (error) {
      ingestion.status = 'failed';
      log().error({ err: error, ingestion_id: ingestion.ingestion_id }, 'admin document ingestion failed');
    } finally {
      ingestion.finished_at = new Date().toISOString();
    }
  }

  private remember(ingestion: Ingestion): void {
    if (this.runs.size >= MAX_REMEMBERED) {
      const oldest = [...this.runs.values()].find((run) => run.status !== 'running');
      if (oldest) this.runs.delete(oldest.ingestion_id);
    }
    this.runs.set(ingestion.ingestion_id, ingestion);
  }
}
