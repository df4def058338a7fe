import { Injectable } from '@nestjs/common';
import { streams } from '../../events/domain-event';
import type { GroundingPolicy } from '../../events/connectors/connector.events';
import { StreamCommandExecutor } from '../shared/stream-command-executor';
import { connectorDecider } from './connector.decider';

export interface GroundingPolicyPreview {
  dry_run: true;
  connector_id: number;
  organization_id: number;
  current_policy: GroundingPolicy;
  requested_policy: GroundingPolicy;
  would_change: boolean;
  /** The events the real run would append (only connector policy changes). */
  would_record: string[];
  /** What the change never touches. */
  preserved: string[];
}

/** What `tool-connectors:set-grounding-policy --dry-run` reports, decided by the same decider as the real run. */
@Injectable()
export class GroundingPolicyPreviewer {
  constructor(private readonly executor: StreamCommandExecutor) {}

  async preview(
    organizationId: number,
    connectorId: number,
    policy: GroundingPolicy,
  ): Promise<GroundingPolicyPreview> {
    const { state, events } = await this.executor.preview(streams.connector(connectorId), connectorDecider, {
      type: 'SetGroundingPolicy',
      organization_id: organizationId,
      grounding_policy: policy,
    });
    const current = state.exists ? state.grounding_policy : policy;
    return {
      dry_run: true,
      connector_id: connectorId,
      organization_id: organizationId,
      current_policy: current,
      requested_policy: policy,
      would_change: events.length > 0,
      would_record: events.map((event) => event.type),
      preserved: ['source revisions', 'recall traces', 'feedback', 'audit history', 'tokens', 'capabilities'],
    };
  }
}
