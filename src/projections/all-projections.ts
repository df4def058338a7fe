import type { Embeddings } from '../ai/embeddings';
import { chatbotsProjection } from './chatbots.projection';
import { clientPagesProjection } from './client-pages.projection';
import { conversationsProjection } from './conversations.projection';
import { connectorsProjection } from './connectors.projection';
import { memoryProposalsProjection } from './memory-proposals.projection';
import { memoryUsageProjection } from './memory-usage.projection';
import { memoryVectorsProjection } from './memory-vectors.projection';
import { memoryProjection } from './memory.projection';
import { organizationsProjection } from './organizations.projection';
import type { Projection } from './projection';
import { repliesProjection } from './replies.projection';
import { toolsProjection } from './tools.projection';

/** Every projection this build always runs, in a stable order. */
export const ALL_PROJECTIONS: readonly Projection[] = [
  organizationsProjection,
  chatbotsProjection,
  connectorsProjection,
  memoryProjection,
  memoryUsageProjection,
  memoryProposalsProjection,
  conversationsProjection,
  repliesProjection,
  toolsProjection,
  clientPagesProjection,
];

/** The projections for a configuration: chunk embeddings only when an embedding model is configured. */
export function projectionsFor(embeddings: Embeddings): readonly Projection[] {
  return embeddings.enabled ? [...ALL_PROJECTIONS, memoryVectorsProjection(embeddings)] : ALL_PROJECTIONS;
}
