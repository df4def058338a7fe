import type { CommandContext } from '../shared/command-context';

export class SetToolEnabledCommand {
  constructor(
    readonly organizationId: number,
    readonly toolKey: string,
    readonly enabled: boolean,
    readonly context: CommandContext,
  ) {}
}

export interface SetToolEnabledResult {
  tool_key: string;
  enabled: boolean;
  changed: boolean;
}
