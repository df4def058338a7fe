import type { AnswerOptions, ChatAnswer, ChatRequest } from './model-server';

/** OpenAI function calling in the test model server (model-server.ts): offered tools and scripted calls. */

/** One function the client offered (OpenAI `tools` entry). */
export interface OfferedTool {
  type: string;
  function: { name: string; description?: string; parameters?: Record<string, unknown>; strict?: boolean };
}

/** One function call of a scripted answer; `arguments` is sent as given (a string) or as its JSON. */
export interface ScriptedToolCall {
  /** Default: `call_<serial>_<index>`. */
  id?: string;
  name: string;
  arguments: string | Record<string, unknown>;
}

/** 200 asking for function calls instead of content (`reply.toolCalls`). */
export const toolCallsAnswer = (calls: ScriptedToolCall[], options: AnswerOptions = {}): ChatAnswer => ({
  kind: 'tool_calls',
  calls,
  ...options,
});

/** Names of the functions a chat request offered (empty when it offered none). */
export function offeredTools(request: ChatRequest): string[] {
  return (request.body.tools ?? []).map((tool) => tool.function.name);
}

/** The OpenAI `tool_calls` list of a scripted answer. */
function toolCallsMessage(calls: ScriptedToolCall[], serial: number) {
  return calls.map((call, i) => ({
    id: call.id ?? `call_${serial}_${i}`,
    type: 'function',
    function: {
      name: call.name,
      arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
    },
  }));
}

/**
 * The assistant message and finish_reason of a 200 answer: content (finish_reason `stop` unless told otherwise)
 * or function calls (content null, finish_reason `tool_calls` unless told otherwise); `text` is what it produced.
 */
export function assistantMessage(
  answer: Extract<ChatAnswer, { kind: 'content' | 'tool_calls' }>,
  serial: number,
): { message: Record<string, unknown>; finishReason: string; text: string } {
  if (answer.kind === 'content') {
    const message = { role: 'assistant', content: answer.content, refusal: answer.refusal ?? null };
    return { message, finishReason: answer.finishReason ?? 'stop', text: answer.content ?? '' };
  }
  const tool_calls = toolCallsMessage(answer.calls, serial);
  const message = { role: 'assistant', content: null, refusal: null, tool_calls };
  return { message, finishReason: answer.finishReason ?? 'tool_calls', text: JSON.stringify(tool_calls) };
}
