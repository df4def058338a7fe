import type { CairnConfig } from '../config/config';
import { replyModelsWarning } from '../commands/replies/reply-models';
import { log } from './log';

/** Start-up warnings an operator needs: replies cannot work without both model roles configured. */
export function warnAboutConfiguration(config: Pick<CairnConfig, 'composerModel' | 'reviewerModel'>): void {
  const missing = [
    ...(config.composerModel ? [] : ['CAIRN_COMPOSER_MODEL']),
    ...(config.reviewerModel ? [] : ['CAIRN_REVIEWER_MODEL']),
  ];
  if (missing.length === 0) return;
  log().warn({ code: 'replies_unavailable', missing }, replyModelsWarning(config) ?? '');
}
