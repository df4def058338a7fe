import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Command, Option } from 'nest-commander';
import { operatorContext } from '../commands/shared/command-context';
import {
  ChangeOrganizationCommand,
  type ChangeOrganizationResult,
} from '../commands/organizations/change-organization.command';
import {
  RegisterOrganizationCommand,
  type RegisterOrganizationResult,
} from '../commands/organizations/register-organization.command';
import { expectArgs, parseCount, parseId, requireOption } from './cli-args';
import { JsonCommand } from './json-command';

@Command({ name: 'org:create', description: 'Register an organization → {organization_id, slug}' })
export class OrgCreateCommand extends JsonCommand {
  constructor(private readonly commands: CommandBus) {
    super();
  }

  protected async execute(
    params: string[],
    options: { name?: string; slug?: string; websiteUrl?: string },
  ): Promise<object> {
    expectArgs(params, 0, 'org:create --name N [--slug S] [--website-url U]');
    return this.commands.execute<RegisterOrganizationCommand, RegisterOrganizationResult>(
      new RegisterOrganizationCommand(
        requireOption(options.name, '--name'),
        options.slug ?? null,
        options.websiteUrl ?? null,
        operatorContext(),
      ),
    );
  }

  @Option({ flags: '--name <name>', description: 'display name', required: false })
  parseName(value: string): string {
    return value;
  }

  @Option({ flags: '--slug <slug>', description: 'URL slug (default: derived from the name)' })
  parseSlug(value: string): string {
    return value;
  }

  @Option({ flags: '--website-url <url>', description: 'the organization website (http/https)' })
  parseWebsiteUrl(value: string): string {
    return value;
  }
}

/** Decorated so its subclasses inherit the constructor's injection metadata. */
@Injectable()
abstract class OrganizationChange extends JsonCommand {
  constructor(private readonly commands: CommandBus) {
    super();
  }

  protected change(
    organization: string | undefined,
    change: ChangeOrganizationCommand['change'],
  ): Promise<ChangeOrganizationResult> {
    return this.commands.execute<ChangeOrganizationCommand, ChangeOrganizationResult>(
      new ChangeOrganizationCommand(parseId(organization, 'ORG'), change, operatorContext()),
    );
  }
}

@Command({
  name: 'org:pause-agents',
  arguments: '<ORG>',
  description: 'Pause every assistant of the organization',
})
export class OrgPauseAgentsCommand extends OrganizationChange {
  protected execute(params: string[]): Promise<object> {
    expectArgs(params, 1, 'org:pause-agents ORG');
    return this.change(params[0], { type: 'PauseAgentActivity' });
  }
}

@Command({
  name: 'org:resume-agents',
  arguments: '<ORG>',
  description: 'Resume the assistants of the organization',
})
export class OrgResumeAgentsCommand extends OrganizationChange {
  protected execute(params: string[]): Promise<object> {
    expectArgs(params, 1, 'org:resume-agents ORG');
    return this.change(params[0], { type: 'ResumeAgentActivity' });
  }
}

@Command({ name: 'org:set-plan-limit', arguments: '<ORG>', description: 'Set the monthly reply limit' })
export class OrgSetPlanLimitCommand extends OrganizationChange {
  protected execute(params: string[], options: { monthlyReplies?: number }): Promise<object> {
    expectArgs(params, 1, 'org:set-plan-limit ORG --monthly-replies N');
    return this.change(params[0], {
      type: 'SetPlanLimit',
      monthly_replies: requireOption(options.monthlyReplies, '--monthly-replies'),
    });
  }

  @Option({ flags: '--monthly-replies <n>', description: 'replies per calendar month (UTC)' })
  parseMonthlyReplies(value: string): number {
    return parseCount(value, '--monthly-replies');
  }
}
