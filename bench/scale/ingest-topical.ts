/** The scale bench's ingestion: topical synthetic documents through the real path, with embeddings on. */
import { CommandBus } from '@nestjs/cqrs';
import { RegisterConnectorCommand } from '../../src/commands/connectors/register-connector.command';
import type { RegisterConnectorResult } from '../../src/commands/connectors/register-connector.command';
import { IngestDocumentCommand } from '../../src/commands/memory/ingest-document.command';
import { RegisterOrganizationCommand } from '../../src/commands/organizations/register-organization.command';
import type { RegisterOrganizationResult } from '../../src/commands/organizations/register-organization.command';
import { operatorContext } from '../../src/commands/shared/command-context';
import { StreamCommandExecutor } from '../../src/commands/shared/stream-command-executor';
import { MEMORY_VECTORS_PROJECTION } from '../../src/projections/memory-vectors.projection';
import { ProjectionRunner } from '../../src/projections/projection-runner';
import { startBenchServer } from '../bench-server';
import { benchDocument, bulkIngestion } from '../store-figures';
import type { TopicalText } from './topical-text';

const CHUNKS_PER_DOCUMENT = 8;

/**
 * One organization and a connector (memory_search, memory_save), then `chunks` chunks of `text` ingested through
 * IngestDocumentCommand in this process (documents of CHUNKS_PER_DOCUMENT paragraphs), until every projection,
 * the vectors' included, has applied them. Returns the connector and the chunks per second of the whole step.
 */
export async function ingestTopical(
  dataDir: string,
  env: Record<string, string>,
  text: TopicalText,
  chunks: number,
): Promise<{ token: string; clientKey: string; organizationId: number; chunksPerSecond: number }> {
  const server = await startBenchServer(dataDir, env);
  try {
    const commands = server.app.get(CommandBus);
    const context = operatorContext('bench');
    const org = await commands.execute<RegisterOrganizationCommand, RegisterOrganizationResult>(
      new RegisterOrganizationCommand('Scale vectors bench', null, null, context),
    );
    const connector = await commands.execute<RegisterConnectorCommand, RegisterConnectorResult>(
      new RegisterConnectorCommand(
        org.organization_id,
        'bench',
        ['memory_search', 'memory_save'],
        'strict',
        context,
      ),
    );
    const started = performance.now();
    let written = 0;
    let reported = 0;
    await bulkIngestion(server, async (submit) => {
      for (let n = 0; written < chunks; n++) {
        const paragraphs = Array.from({ length: Math.min(CHUNKS_PER_DOCUMENT, chunks - written) }, () =>
          text.paragraph(),
        );
        const command = new IngestDocumentCommand(
          org.organization_id,
          benchDocument(`scale:${n}`, `${text.title()} ${n}`, paragraphs.join('\n\n')),
          context,
          { waitForReadModels: false },
        );
        await submit(async () => {
          await commands.execute(command);
        });
        written += paragraphs.length;
        if (written - reported >= chunks / 20) {
          reported = written;
          process.stderr.write(
            `scale-vectors: ${written.toLocaleString('en-US')} chunks appended (${Math.round((written * 1000) / (performance.now() - started))}/s)\n`,
          );
        }
      }
    });
    const runner = server.app.get(ProjectionRunner);
    const executor = server.app.get(StreamCommandExecutor);
    const head = await server.stores.eventStore.headPosition();
    for (;;) {
      if (await runner.waitFor(head, 60_000)) break;
      const vectors = await server.stores.readStore.getCheckpoint(MEMORY_VECTORS_PROJECTION);
      process.stderr.write(
        `scale-vectors: projections catching up (vectors at ${vectors?.position} of ${head})\n`,
      );
      await executor.settle(head);
    }
    const seconds = (performance.now() - started) / 1000;
    return {
      token: connector.token,
      clientKey: connector.client_key,
      organizationId: org.organization_id,
      chunksPerSecond: written / seconds,
    };
  } finally {
    await server.app.close();
  }
}
