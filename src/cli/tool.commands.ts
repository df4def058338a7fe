import { readFile, stat } from 'node:fs/promises';
import { Injectable } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { Command } from 'nest-commander';
import secureJsonParse from 'secure-json-parse';
import { operatorContext } from '../commands/shared/command-context';
import { RegisterToolCommand, type RegisterToolResult } from '../commands/tools/register-tool.command';
import { SetToolEnabledCommand, type SetToolEnabledResult } from '../commands/tools/set-tool-enabled.command';
import { ValidationFailedError } from '../common/errors';
import type { AssistantToolDocument } from '../projections/tools.projection';
import { ListToolsQuery } from '../queries/tools/list-tools.query';
import { expectArgs, parseId } from './cli-args';
import { JsonCommand } from './json-command';

/** The largest tool definition file `tool:register` reads. */
export const MAX_TOOL_DEFINITION_BYTES = 256 * 1024;

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

function unreadable(path: string, message: string): ValidationFailedError {
  return new ValidationFailedError(`cannot read the tool definition file ${path}: ${message}`, [
    { field: 'FILE', message, path },
  ]);
}

/**
 * Reads a tool definition file: at most MAX_TOOL_DEFINITION_BYTES of UTF-8 JSON, without `__proto__` /
 * `constructor.prototype` keys. Any failure is a validation error naming the file.
 */
export async function readToolDefinitionFile(path: string): Promise<unknown> {
  let bytes: Buffer;
  try {
    const info = await stat(path);
    if (!info.isFile()) throw unreadable(path, 'not a regular file');
    if (info.size > MAX_TOOL_DEFINITION_BYTES) {
      throw unreadable(path, `larger than ${MAX_TOOL_DEFINITION_BYTES} bytes`);
    }
    bytes = await readFile(path);
  } catch (error) {
    if (error instanceof ValidationFailedError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw unreadable(path, code === 'ENOENT' ? 'no such file' : `unreadable (${code ?? 'error'})`);
  }
  if (bytes.length > MAX_TOOL_DEFINITION_BYTES) {
    throw unreadable(path, `larger than ${MAX_TOOL_DEFINITION_BYTES} bytes`);
  }
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw unreadable(path, 'not valid UTF-8');
  }
  try {
    return secureJsonParse.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (error) {
    const poisoned = error instanceof SyntaxError && /prototype/i.test(error.message);
    throw unreadable(
      path,
      poisoned
        ? 'contains a forbidden key (__proto__ or constructor.prototype)'
        : `not valid JSON (${error instanceof Error ? error.message : 'parse error'})`,
    );
  }
}

@Command({
  name: 'tool:register',
  arguments: '<ORG> <FILE>',
  description:
    'Register (or update) an assistant tool from a JSON definition → {tool_key, enabled, version, changed}',
})
export class ToolRegisterCommand extends JsonCommand {
  constructor(private readonly commands: CommandBus) {
    super();
  }

  protected async execute(params: string[]): Promise<object> {
    expectArgs(params, 2, 'tool:register ORG FILE');
    const organizationId = parseId(params[0], 'ORG');
    const definition = await readToolDefinitionFile(params[1]);
    return this.commands.execute<RegisterToolCommand, RegisterToolResult>(
      new RegisterToolCommand(organizationId, definition, operatorContext()),
    );
  }
}

/** Decorated so its subclasses inherit the constructor's injection metadata. */
@Injectable()
abstract class ToolEnabledToggle extends JsonCommand {
  protected abstract readonly enabled: boolean;

  constructor(private readonly commands: CommandBus) {
    super();
  }

  protected execute(params: string[]): Promise<object> {
    expectArgs(params, 2, `${this.enabled ? 'tool:enable' : 'tool:disable'} ORG KEY`);
    return this.commands.execute<SetToolEnabledCommand, SetToolEnabledResult>(
      new SetToolEnabledCommand(parseId(params[0], 'ORG'), params[1], this.enabled, operatorContext()),
    );
  }
}

@Command({
  name: 'tool:enable',
  arguments: '<ORG> <KEY>',
  description: 'Enable a registered assistant tool → {tool_key, enabled, changed}',
})
export class ToolEnableCommand extends ToolEnabledToggle {
  protected readonly enabled = true;
}

@Command({
  name: 'tool:disable',
  arguments: '<ORG> <KEY>',
  description: 'Disable an assistant tool → {tool_key, enabled, changed}',
})
export class ToolDisableCommand extends ToolEnabledToggle {
  protected readonly enabled = false;
}

@Command({
  name: 'tool:list',
  arguments: '<ORG>',
  description: 'Assistant tools of an organization, ordered by key → {tools: [...]}',
})
export class ToolListCommand extends JsonCommand {
  constructor(private readonly queries: QueryBus) {
    super();
  }

  protected async execute(params: string[]): Promise<object> {
    expectArgs(params, 1, 'tool:list ORG');
    const tools = await this.queries.execute<ListToolsQuery, AssistantToolDocument[]>(
      new ListToolsQuery(parseId(params[0], 'ORG')),
    );
    return {
      tools: tools.map((tool) => ({
        tool_key: tool.tool_key,
        enabled: tool.enabled,
        version: tool.version,
        description: tool.definition.description,
        endpoint: tool.definition.endpoint,
        read_only: tool.definition.read_only,
        requires_approval: tool.definition.requires_approval,
      })),
    };
  }
}
