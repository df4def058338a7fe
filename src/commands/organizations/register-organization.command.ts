import type { CommandContext } from '../shared/command-context';

export class RegisterOrganizationCommand {
  constructor(
    readonly name: string,
    readonly slug: string | null,
    readonly websiteUrl: string | null,
    readonly context: CommandContext,
  ) {}
}

export interface RegisterOrganizationResult {
  organization_id: number;
  slug: string;
}
