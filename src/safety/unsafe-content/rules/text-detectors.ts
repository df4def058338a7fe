import { detectNormalizedAwsKeyIds } from './aws-key-id-normalized.rule';
import { detectCommandLinePasswords } from './command-line-password.rule';
import { detectCardNumbers, detectSpreadCardNumbers } from './card-number.rule';
import type { RawFinding } from './finding';
import { detectHighEntropyStrings } from './high-entropy.rule';
import { detectInlineCredentials } from './inline-credentials.rule';
import { detectJwts } from './jwt.rule';
import { detectPasswordHashes } from './password-hash.rule';
import { detectPersonalDataDumps } from './personal-data-dump.rule';
import { detectProseCredentials } from './prose-credential.rule';
import { detectIntlProseCredentials } from './prose-credential-intl.rule';
import { detectProviderTokens } from './provider-tokens.rule';
import { detectSecretAssignments } from './secret-assignment.rule';
import { detectUrlCredentials } from './url-credentials.rule';

/**
 * The synchronous detectors besides private keys (which run first in the scanner: their spans mask the others),
 * in the order the scanner applies them. Shared by the memory scanner and the tool-output check.
 */
export const TEXT_DETECTORS: ReadonlyArray<(text: string) => RawFinding[]> = [
  detectProviderTokens,
  detectNormalizedAwsKeyIds,
  detectJwts,
  detectUrlCredentials,
  detectPasswordHashes,
  detectCardNumbers,
  detectSpreadCardNumbers,
  detectInlineCredentials,
  detectCommandLinePasswords,
  detectSecretAssignments,
  detectProseCredentials,
  detectIntlProseCredentials,
  detectHighEntropyStrings,
  detectPersonalDataDumps,
];
