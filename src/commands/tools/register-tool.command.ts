import type { CommandContext } from '../shared/command-context';

export class RegisterToolCommand {
  constructor(
    readonly organizationId: number,
    /** The definition as read (parsed JSON, not yet validated): the handler validates it. */
    readonly definition: unknown,
    readonly context: CommandContext,
  ) {}
}

export interface RegisterToolResult {
  tool_key: string;
  enabled: boolean;
  version: number;
  /** False when the same definition was already registered (nothing recorded). */
  changed: boolean;
}
