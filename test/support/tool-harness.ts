import { reply, type ChatAnswer, type ModelServer } from './model-server';
import { startModelApp } from './reply-fixtures';
import { createReplyTenant, type ReplyTenant } from './reply-tenant';
import type { TestApp } from './test-app';
import { grantTools, ORDER_TOOL, orderToolDefinition, registerTool } from './tool-fixtures';
import { startToolServer, type ToolServer } from './tool-server';

/** A Cairn app wired to a scripted model server and a real local tool endpoint (reply-tools*.spec.ts). */
export interface ToolHarness {
  model: ModelServer;
  tools: ToolServer;
  t: TestApp;
  /** A fresh tenant with the order tool at `path` registered, enabled and granted to its connector. */
  toolTenant(name: string, path: string, patch?: Record<string, unknown>): Promise<ReplyTenant>;
  /** Clears model scripts, tool scripts and recorded tool calls (call in beforeEach). */
  reset(): void;
  close(): Promise<void>;
}

export const A1 = { order_id: 'A1' };

/** The composer asks for the order tool with input A1. */
export const askA1 = (): ChatAnswer => reply.toolCalls([{ name: ORDER_TOOL, arguments: A1 }]);

export async function startToolHarness(): Promise<ToolHarness> {
  const { model, t, close } = await startModelApp({ CAIRN_MODEL_TIMEOUT_MS: '1500' });
  const tools = await startToolServer();
  return {
    model,
    tools,
    t,
    async toolTenant(name, path, patch = {}) {
      const tenant = await createReplyTenant(t, name);
      await registerTool(t, tenant.organization_id, orderToolDefinition(tools.endpoint(path), patch));
      await grantTools(t, tenant, [ORDER_TOOL]);
      return tenant;
    },
    reset() {
      model.script.reset();
      tools.reset();
    },
    async close() {
      await close();
      await tools.close();
    },
  };
}
