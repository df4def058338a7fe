/**
 * Secret-bearing output field names (interface §4.6 rule 10: "secret-bearing output fields are forbidden").
 * A property name of an output schema, at any depth, is rejected when
 * - one of its words (split at `_`, `-`, digits and camelCase humps, case-insensitive) is in SECRET_WORDS:
 *   credentials and authentication material (`password`, `token`, `secret`, `cookie`, `session`, `jwt`, `otp`, …)
 *   and secrets that are not credentials but must never reach a reply (`ssn`, `cvv`, `cvc`, `pin`, card number);
 *   so `access_token`, `apiToken`, `client_secret`, `sessionId`, `set_cookie`, `auth_header` are rejected;
 * - two consecutive words form a secret pair (`api key`, `private key`, `secret key`, `access key`,
 *   `signing key`, `encryption key`, `master key`, `license key`): `apiKey`, `api_key`, `PRIVATE_KEY`;
 * - or the name with separators removed, lower-cased, contains a SECRET_COMPOUNDS entry, which catches names
 *   written without separators (`apikey`, `accesstoken`, `clientsecret`, `userpassword`, `dbpasswd`).
 * Plain `key` is allowed (`key`, `order_key`, `sort_key` are ordinary), and so are words that only contain a
 * secret word as a substring (`secretary`, `author`, `tokenize` are not split into secret words; the compound
 * list holds only unambiguous spellings).
 */

const words = (list: string): ReadonlySet<string> => new Set(list.trim().split(/\s+/));

const SECRET_WORDS = words(`
  password passwords passwd pwd passphrase passcode
  secret secrets token tokens apikey apikeys credential credentials
  cookie cookies session sessions sessionid sid jwt bearer auth authorization authn oauth
  otp totp hotp nonce salt privatekey ssn cvv cvc pin
`);

const SECRET_PAIRS: ReadonlyArray<readonly [string, string]> = [
  ['api', 'key'],
  ['private', 'key'],
  ['secret', 'key'],
  ['access', 'key'],
  ['signing', 'key'],
  ['encryption', 'key'],
  ['master', 'key'],
  ['license', 'key'],
  ['client', 'key'],
  ['recovery', 'code'],
  ['security', 'code'],
  ['verification', 'code'],
  ['card', 'number'],
  ['social', 'security'],
];

const SECRET_COMPOUNDS = [
  'password',
  'passwd',
  'passphrase',
  'apikey',
  'accesskey',
  'secretkey',
  'privatekey',
  'signingkey',
  'clientsecret',
  'accesstoken',
  'refreshtoken',
  'authtoken',
  'idtoken',
  'bearertoken',
  'sessiontoken',
  'sessionid',
  'credential',
  'authorization',
  'setcookie',
];

/** Splits `apiKey`, `API_KEY`, `x-api-key`, `OAuth2Token` into lower-case words. */
export function fieldNameWords(name: string): string[] {
  return name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z]+/)
    .filter((word) => word.length > 0)
    .map((word) => word.toLowerCase());
}

/** Why a field name is secret-bearing (the matched word or pair), or null when it is not. */
export function secretFieldReason(name: string): string | null {
  const parts = fieldNameWords(name);
  const word = parts.find((part) => SECRET_WORDS.has(part));
  if (word !== undefined) return word;
  for (let i = 0; i + 1 < parts.length; i++) {
    const pair = SECRET_PAIRS.find(([a, b]) => parts[i] === a && parts[i + 1] === b);
    if (pair !== undefined) return pair.join('_');
  }
  const joined = parts.join('');
  return SECRET_COMPOUNDS.find((compound) => joined.includes(compound)) ?? null;
}
