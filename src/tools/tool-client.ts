/**
 * Calls an assistant tool's endpoint: `POST endpoint` with the validated input as JSON, under the tool's own
 * timeout, reading at most MAX_TOOL_RESPONSE_BYTES. Redirects are not followed (the endpoint is what the operator
 * registered). Every failure is a ToolCallError; the caller decides the outcome.
 */

/** Largest tool response read. */
export const MAX_TOOL_RESPONSE_BYTES = 256 * 1024;

export class ToolCallError extends Error {
  constructor(
    /** `unavailable`: transport, timeout or non-2xx; `malformed`: not a JSON response within the bound. */
    readonly kind: 'unavailable' | 'malformed' | 'canceled',
    message: string,
  ) {
    super(message);
    this.name = 'ToolCallError';
  }
}

export async function callTool(
  endpoint: string,
  input: unknown,
  timeoutMs: number,
  cancel?: AbortSignal,
): Promise<unknown> {
  const deadline = AbortSignal.timeout(timeoutMs);
  const signal = cancel ? AbortSignal.any([deadline, cancel]) : deadline;
  let response: Response;
  try {
    response = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(input),
      redirect: 'manual',
      signal,
    });
  } catch {
    if (cancel?.aborted) throw new ToolCallError('canceled', 'the tool call was canceled');
    if (deadline.aborted) throw new ToolCallError('unavailable', `the tool timed out after ${timeoutMs} ms`);
    throw new ToolCallError('unavailable', 'the tool endpoint is unreachable');
  }
  if (response.status < 200 || response.status >= 300) {
    await response.body?.cancel().catch(() => undefined);
    throw new ToolCallError('unavailable', `the tool answered HTTP ${response.status}`);
  }
  const text = await readBounded(response, signal);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ToolCallError('malformed', 'the tool response is not JSON');
  }
}

async function readBounded(response: Response, signal: AbortSignal): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > MAX_TOOL_RESPONSE_BYTES) {
        await reader.cancel();
        throw new ToolCallError('malformed', `the tool response exceeds ${MAX_TOOL_RESPONSE_BYTES} bytes`);
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof ToolCallError) throw error;
    throw new ToolCallError(signal.aborted ? 'unavailable' : 'malformed', 'the tool response was cut off');
  }
  return new TextDecoder('utf-8', { fatal: false }).decode(Buffer.concat(chunks));
}
