import { CreateChatbotCommand } from '../../src/commands/chatbots/create-chatbot.command';
import { operatorContext } from '../../src/commands/shared/command-context';
import { createConnector, createOrganization } from './fixtures';
import { ingest } from './memory-fixtures';
import { REPLY_CAPABILITIES as CAPABILITIES } from './reply-fixtures';
import { makeTempDir } from './temp-dir';
import { startTestApp } from './test-app';

/** A reply tenant on its own data directory, for tests that run real server processes over it. */
export interface ProcessTenant {
  dataDir: string;
  cleanup: () => void;
  organizationId: number;
  chatbotId: number;
  connectorId: number;
  token: string;
}

/** A fresh data directory with an organization, its one chatbot, a strict connector and one approved memory item. */
export async function prepareProcessTenant(): Promise<ProcessTenant> {
  const temp = makeTempDir('cairn-reply-mp-');
  try {
    const t = await startTestApp({}, temp.dir);
    try {
      const organizationId = (await createOrganization(t.commands, 'Clinic')).organization_id;
      const { chatbot_id: chatbotId } = (await t.commands.execute(
        new CreateChatbotCommand(organizationId, 'Front desk', null, operatorContext('test')),
      )) as { chatbot_id: number };
      const connector = await createConnector(t.commands, organizationId, CAPABILITIES);
      await ingest(
        t.commands,
        organizationId,
        'Opening hours',
        'The clinic is open Monday to Friday, 8:00 to 18:00.',
      );
      return {
        dataDir: temp.dir,
        cleanup: temp.cleanup,
        organizationId,
        chatbotId,
        connectorId: connector.connector_id,
        token: connector.token,
      };
    } finally {
      await t.close();
    }
  } catch (error) {
    temp.cleanup();
    throw error;
  }
}
