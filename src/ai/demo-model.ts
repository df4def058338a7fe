/**
 * `CAIRN_DEMO_MODEL=on` or `--demo-model`: the server starts the demo model (demo-model-server.ts) in its own
 * process and uses it for both reply roles, so a fresh machine can try replies and feedback with no model. It is
 * no language model: every reply quotes one sentence of its evidence verbatim and every review approves. It says
 * so at start (a warning line) and on every reply (`usage.model` is DEMO_MODEL_NAME).
 */
import { demoModelConflicts, type CairnConfig } from '../config/config';
import { ValidationFailedError } from '../common/errors';
import { startInstantModelServer } from './demo-model-server';

/** The model name replies carry in `usage.model` (and receipts in their model fields) under the demo model. */
export const DEMO_MODEL_NAME = 'cairn-demo-model (not a language model: quotes its evidence)';

export const DEMO_MODEL_FLAG = '--demo-model';

export const DEMO_MODEL_WARNING =
  'DEMO MODEL: replies are not written by a language model; each quotes one sentence of its evidence verbatim ' +
  `and every review approves (CAIRN_DEMO_MODEL=on or ${DEMO_MODEL_FLAG}; usage.model "${DEMO_MODEL_NAME}"). ` +
  'Never in production: set OPENAI_BASE_URL, CAIRN_COMPOSER_MODEL and CAIRN_REVIEWER_MODEL instead';

export function demoModelRequested(config: Pick<CairnConfig, 'demoModel'>, argv: string[]): boolean {
  return config.demoModel || argv.includes(DEMO_MODEL_FLAG);
}

/**
 * Starts the demo model on 127.0.0.1 (an ephemeral port; it never keeps the process alive) and returns the
 * configuration that points both reply roles at it.
 */
export async function withDemoModel(config: CairnConfig): Promise<CairnConfig> {
  const conflicts = demoModelConflicts(config);
  if (conflicts.length > 0) {
    throw new ValidationFailedError(
      `invalid configuration: ${conflicts.map((c) => c.message).join('; ')}`,
      conflicts,
      'invalid_configuration',
    );
  }
  const server = await startInstantModelServer({ unref: true });
  return {
    ...config,
    demoModel: true,
    openaiBaseUrl: server.url,
    openaiApiKey: null,
    composerModel: DEMO_MODEL_NAME,
    reviewerModel: DEMO_MODEL_NAME,
  };
}
