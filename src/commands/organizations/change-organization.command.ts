import type { CommandContext } from '../shared/command-context';

/** Operator changes to an existing organization (pause/resume agent activity, plan limit). */
export class ChangeOrganizationCommand {
  constructor(
    readonly organizationId: number,
    readonly change:
      | { type: 'PauseAgentActivity' }
      | { type: 'ResumeAgentActivity' }
      | { type: 'SetPlanLimit'; monthly_replies: number | null },
    readonly context: CommandContext,
  ) {}
}

export interface ChangeOrganizationResult {
  organization_id: number;
  agent_activity_paused: boolean;
  monthly_reply_limit: number | null;
  changed: boolean;
}
