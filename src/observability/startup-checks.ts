import type { CairnConfig } from '../config/config';
import { log } from './log';

/** Start-up warnings an operator needs: replies cannot work without both model roles configured. */
export function warnAboutConfiguration(config: Pick<CairnConfig, 'composerModel' | 'reviewerModel'>): void {
  const missing = [
    ...(config.composerModel ? [] : ['CAIRN_COMPOSER_MODEL']),
    ...(config.reviewerModel ? [] : ['CAIRN_REVIEWER_MODEL']),
  ];
  if (missing.length === 0) return;
  log().warn(
    { code: 'replies_unavailable', missing },
    `replies cannot work: ${missing.join(' and ')} not set; every reply request answers assistant_runtime_unavailable`,
  );
}
