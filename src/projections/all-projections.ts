import { chatbotsProjection } from './chatbots.projection';
import { connectorsProjection } from './connectors.projection';
import { memoryProjection } from './memory.projection';
import { memoryProposalsProjection } from './memory-proposals.projection';
import { memoryUsageProjection } from './memory-usage.projection';
import { organizationsProjection } from './organizations.projection';
import type { Projection } from './projection';

/** Every projection this build runs, in a stable order. */
export const ALL_PROJECTIONS: readonly Projection[] = [
  organizationsProjection,
  chatbotsProjection,
  connectorsProjection,
  memoryProjection,
  memoryUsageProjection,
  memoryProposalsProjection,
];
