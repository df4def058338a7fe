import type { CommandBus } from '@nestjs/cqrs';
import {
  IngestDocumentCommand,
  type DocumentInput,
  type IngestDocumentOptions,
  type IngestDocumentResult,
} from '../../src/commands/memory/ingest-document.command';
import { operatorContext } from '../../src/commands/shared/command-context';

let counter = 0;

/** Ingests one approved, customer-safe document through the real ingestion path. */
export function ingest(
  commands: CommandBus,
  organizationId: number,
  title: string,
  content: string,
  overrides: Partial<DocumentInput> = {},
  options: IngestDocumentOptions = {},
): Promise<IngestDocumentResult> {
  counter += 1;
  return commands.execute(
    new IngestDocumentCommand(
      organizationId,
      {
        document_key: `test-${counter}`,
        title,
        content,
        format: 'markdown',
        type: 'faq',
        audience: 'customer_safe',
        authority_level: 'approved_source',
        source_label: 'Clinic website',
        source_uri: 'https://clinic.example.com/faq',
        source_date: null,
        effective_at: null,
        expires_at: null,
        summary: null,
        ...overrides,
      },
      operatorContext('test'),
      options,
    ),
  );
}

export const MEMORY = '/app/api/tool-connectors/v1/memory';
export const ALL_MEMORY = ['memory_search', 'memory_save', 'memory_propose'];
