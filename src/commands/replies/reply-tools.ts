import { Injectable } from '@nestjs/common';
import type { ChatToolCall } from '../../ai/openai-gateway';
import type { JsonValue } from '../../ai/reply-model-contract';
import { Clock } from '../../common/clock';
import { IdGenerator } from '../../common/id-generator';
import { streams } from '../../events/domain-event';
import type { ConnectorPrincipal } from '../../http/auth/connector-principal';
import { callTool, ToolCallError } from '../../tools/tool-client';
import { checkToolDefinition, type ToolDefinition } from '../../tools/tool-definition';
import { projectToolOutput, toolOutputStrings, validateToolInput } from '../../tools/tool-output';
import { UnsafeContentScanner } from '../../safety/unsafe-content/unsafe-content-scanner';
import { canonicalDigest } from '../shared/canonical-digest';
import type { CommandContext } from '../shared/command-context';
import { StreamCommandExecutor } from '../shared/stream-command-executor';
import { toolRunDecider, type ToolRunState } from '../tools/tool-run.decider';
import { toolDecider } from '../tools/tool.decider';
import { ReplyAbort } from './reply-abort';
import type { ReplyToolbox, ToolEvidence } from './reply-toolbox';

/** Tool calls one reply may make (all composer rounds together). */
export const MAX_TOOL_CALLS_PER_REPLY = 4;

const TOOL_PREFIX = 'assistant_tool:';

interface UsableTool {
  key: string;
  /** As stored; it passed the current contract when the toolbox was built, apart from `refusal`. */
  definition: ToolDefinition;
  /** Why a call is refused before any run (approval required, write risk), or null. */
  refusal: string | null;
}

/** The run stream of one call: per (organization, connector, reply, tool, canonical input). */
export function toolRunStream(key: {
  organization_id: number;
  connector_id: number;
  reply_id: number;
  tool_key: string;
  input_sha256: string;
}): string {
  const { organization_id, connector_id, reply_id, tool_key, input_sha256 } = key;
  return streams.toolRun(
    canonicalDigest({ organization_id, connector_id, reply_id, tool_key, input_sha256 }),
  );
}

const isCallRefusal = (code: string): boolean => code === 'approval_required' || code === 'write_risk';

/**
 * Assistant tools in replies (spec §4.6 rule 10). A connector reaches a tool only with `assistant_reply` and
 * `assistant_tool:<key>`, and only a registered, enabled tool whose stored definition passes the current strict
 * contract is offered to the composer. A call of a tool that requires approval or may write (a definition stored
 * by an older build) is refused before a tool run exists. Input is validated against the input schema; output is
 * validated, scanned and projected once (src/tools/tool-output.ts) before anything else sees it. A run is an
 * event stream per (organization, connector, reply, tool, input): a later attempt of the same reply reuses a
 * succeeded run only after re-checking the connector's authorization and the stored output against the tool's
 * current schema.
 */
@Injectable()
export class ReplyTools {
  constructor(
    private readonly executor: StreamCommandExecutor,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly scanner: UnsafeContentScanner,
  ) {}

  /** The tools of one reply attempt, or undefined when the connector may use none. */
  async toolboxFor(
    connector: ConnectorPrincipal,
    replyId: number,
    context: CommandContext,
  ): Promise<ReplyToolbox | undefined> {
    if (!connector.capabilities.includes('assistant_reply')) return undefined;
    const keys = connector.capabilities
      .filter((c) => c.startsWith(TOOL_PREFIX))
      .map((c) => c.slice(TOOL_PREFIX.length));
    const usable = new Map<string, UsableTool>();
    for (const key of keys) {
      const { state } = await this.executor.loadLatest(
        streams.tool(connector.organization_id, key),
        toolDecider,
      );
      if (!state.exists || !state.enabled) continue;
      const problems = checkToolDefinition(state.definition).problems;
      // Approval and write flags are refused at call time (a typed outcome); any other breach is never offered.
      if (!problems.every((p) => isCallRefusal(p.code))) continue;
      const refusals = problems.map((p) => p.message);
      usable.set(key, {
        key,
        definition: state.definition,
        refusal: refusals.length > 0 ? refusals.join('; ') : null,
      });
    }
    if (usable.size === 0) return undefined;
    return {
      offered: [...usable.values()].map((tool) => ({
        name: tool.key,
        description: tool.definition.description,
        parameters: tool.definition.input_schema as unknown as Record<string, unknown>,
      })),
      maxCalls: MAX_TOOL_CALLS_PER_REPLY,
      run: (call, signal) => this.run(connector, replyId, usable, call, context, signal),
    };
  }

  private async run(
    connector: ConnectorPrincipal,
    reply_id: number,
    usable: ReadonlyMap<string, UsableTool>,
    call: ChatToolCall,
    context: CommandContext,
    signal?: AbortSignal,
  ): Promise<ToolEvidence> {
    const tool = usable.get(call.name);
    if (!tool)
      throw new ReplyAbort('assistant_answer_incomplete', `the composer called an unknown tool ${call.name}`);
    if (tool.refusal !== null) {
      throw new ReplyAbort('external_tool_approval_unsupported', `tool ${tool.key}: ${tool.refusal}`);
    }
    const definition = tool.definition;
    let input: unknown;
    try {
      input = JSON.parse(call.arguments);
    } catch {
      throw new ReplyAbort('assistant_answer_incomplete', `the arguments for tool ${tool.key} are not JSON`);
    }
    const violations = validateToolInput(definition, input);
    if (violations.length > 0) {
      throw new ReplyAbort(
        'assistant_answer_incomplete',
        `the arguments for tool ${tool.key} break its input schema at ${violations[0].path}`,
      );
    }
    const input_sha256 = canonicalDigest(input);
    const stream = toolRunStream({
      organization_id: connector.organization_id,
      connector_id: connector.connector_id,
      reply_id,
      tool_key: tool.key,
      input_sha256,
    });
    const options = { organizationId: connector.organization_id, waitFor: [] };
    const loaded = await this.executor.load(stream, toolRunDecider);
    const schemaDigest = canonicalDigest(definition.output_schema);
    if (loaded.state.status === 'succeeded') return this.reuse(connector, tool, loaded.state, schemaDigest);

    const tool_run_id = await this.ids.next('tool_run');
    await this.executor.executeOn(
      stream,
      toolRunDecider,
      loaded,
      {
        type: 'Start',
        run: {
          tool_run_id,
          organization_id: connector.organization_id,
          connector_id: connector.connector_id,
          reply_id,
          tool_key: tool.key,
          definition_sha256: canonicalDigest(definition),
          input: input as Record<string, unknown>,
          input_sha256,
          started_at: new Date(this.clock.nowMs()).toISOString(),
        },
      },
      context,
      options,
    );
    const fail = async (failure: 'output_unsafe' | 'unavailable', reason: string, path: string | null) => {
      await this.executor.execute(
        stream,
        toolRunDecider,
        { type: 'Fail', failure, reason, path, now_ms: this.clock.nowMs() },
        context,
        options,
      );
    };
    let raw: unknown;
    try {
      raw = await callTool(definition.endpoint, input, definition.timeout_ms, signal);
    } catch (error) {
      const e = error instanceof ToolCallError ? error : new ToolCallError('unavailable', String(error));
      await fail(e.kind === 'malformed' ? 'output_unsafe' : 'unavailable', e.message, null);
      if (e.kind === 'canceled')
        throw new ReplyAbort('assistant_run_canceled', `tool ${tool.key}: ${e.message}`);
      if (e.kind === 'malformed')
        throw new ReplyAbort('external_tool_output_unsafe', `tool ${tool.key}: ${e.message}`);
      throw new ReplyAbort('assistant_runtime_failed', `tool ${tool.key}: ${e.message}`);
    }
    const projected = projectToolOutput(definition, raw);
    if (!projected.ok) {
      await fail('output_unsafe', projected.reason, projected.path);
      throw new ReplyAbort(
        'external_tool_output_unsafe',
        `tool ${tool.key}: ${projected.reason} at ${projected.path}`,
      );
    }
    // The full scanner of memory writes (incl. secretlint) over every string of the projected output.
    const findings = await this.scanner.scan(toolOutputStrings(projected.output));
    if (findings.length > 0) {
      const [flag] = findings;
      await fail('output_unsafe', `${flag.kind} (${flag.rule})`, flag.field);
      throw new ReplyAbort('external_tool_output_unsafe', `tool ${tool.key}: ${flag.kind} at ${flag.field}`);
    }
    const output_sha256 = canonicalDigest(projected.output);
    await this.executor.execute(
      stream,
      toolRunDecider,
      { type: 'Succeed', output: projected.output, output_sha256, now_ms: this.clock.nowMs() },
      context,
      options,
    );
    return {
      reference_id: `tool-run:${tool_run_id}`,
      tool_key: tool.key,
      tool_run_id,
      output_schema_sha256: schemaDigest,
      input_sha256,
      output: projected.output as JsonValue,
      output_sha256,
    };
  }

  /** A succeeded run of an earlier attempt: usable only if its binding and stored output still hold. */
  private reuse(
    connector: ConnectorPrincipal,
    tool: UsableTool,
    state: ToolRunState,
    schemaDigest: string,
  ): ToolEvidence {
    const run = state.run;
    const result = state.result;
    const authorized =
      connector.capabilities.includes('assistant_reply') &&
      connector.capabilities.includes(`${TOOL_PREFIX}${tool.key}`) &&
      run?.connector_id === connector.connector_id &&
      run?.organization_id === connector.organization_id;
    if (!run || !result || !authorized) {
      throw new ReplyAbort(
        'external_agent_run_binding_invalid',
        `tool run of ${tool.key} is bound elsewhere`,
      );
    }
    const projected = projectToolOutput(tool.definition, result.output);
    if (!projected.ok || canonicalDigest(projected.output) !== result.output_sha256) {
      throw new ReplyAbort(
        'external_agent_run_binding_invalid',
        `the stored output of tool run ${run.tool_run_id} no longer passes the current schema of ${tool.key}`,
      );
    }
    return {
      reference_id: `tool-run:${run.tool_run_id}`,
      tool_key: tool.key,
      tool_run_id: run.tool_run_id,
      output_schema_sha256: schemaDigest,
      input_sha256: run.input_sha256,
      output: projected.output as JsonValue,
      output_sha256: result.output_sha256,
    };
  }

  /**
   * Replay of a reply that used tools (spec §3 "tool checks"): each bound run is still the connector's, its tool is
   * still granted, registered and enabled, and its stored output still passes the tool's current contract with the
   * bound digest. Returns what fails, or null.
   */
  async revalidateRuns(
    connector: ConnectorPrincipal,
    reply_id: number,
    runs: ReadonlyArray<{
      tool_key: string;
      tool_run_id: number;
      input_sha256: string;
      output_sha256: string;
    }>,
  ): Promise<string | null> {
    for (const bound of runs) {
      if (!connector.capabilities.includes(`${TOOL_PREFIX}${bound.tool_key}`))
        return `tool capability revoked: ${bound.tool_key}`;
      const tool = (
        await this.executor.loadLatest(streams.tool(connector.organization_id, bound.tool_key), toolDecider)
      ).state;
      if (!tool.exists || !tool.enabled) return `tool ${bound.tool_key} is no longer enabled`;
      const stream = toolRunStream({
        organization_id: connector.organization_id,
        connector_id: connector.connector_id,
        reply_id,
        tool_key: bound.tool_key,
        input_sha256: bound.input_sha256,
      });
      const { state } = await this.executor.load(stream, toolRunDecider);
      if (
        state.status !== 'succeeded' ||
        state.run?.tool_run_id !== bound.tool_run_id ||
        state.result?.output_sha256 !== bound.output_sha256
      )
        return `tool run ${bound.tool_run_id} does not match`;
      const projected = projectToolOutput(tool.definition, state.result.output);
      if (!projected.ok || canonicalDigest(projected.output) !== bound.output_sha256)
        return `tool run ${bound.tool_run_id} no longer passes the current schema of ${bound.tool_key}`;
    }
    return null;
  }
}
