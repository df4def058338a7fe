/**
 * The grounding scenarios: honest positive controls that must answer, and lies by either model or both
 * that must never leave. Each is general: it acts on the evidence Cairn gives (by title), not on ids of one run.
 * Ids: `c` controls, `q` lies in the quotes, `r` the reviewer lies or fails, `w` the composer lies or fails (the reviewer rubber-stamps,
 * i.e. both models lie), `k` known gaps (documented: a lie no check Cairn owns can catch when both models collude).
 */
import type { GroundingScenario } from './adversarial-model';
import { COMPOSER_LIES } from './composer-scenarios';
import { KNOWN_GAPS } from './gap-scenarios';
import { CONTROLS } from './control-scenarios';
import { QUOTE_LIES } from './quote-scenarios';
import { REVIEWER_LIES } from './reviewer-scenarios';

export { COMPOSER_LIES, CONTROLS, KNOWN_GAPS, QUOTE_LIES, REVIEWER_LIES };

export const GROUNDING_SCENARIOS: GroundingScenario[] = [
  ...CONTROLS,
  ...REVIEWER_LIES,
  ...COMPOSER_LIES,
  ...QUOTE_LIES,
  ...KNOWN_GAPS,
];
