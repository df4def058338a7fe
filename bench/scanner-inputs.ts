/**
 * Adversarial inputs for the secret scanner (issue 29): long runs of each character class and of the prefixes
 * its patterns key on. Shared by the scanner bench and the linear-time spec (test/unit/unsafe-content).
 */

/** `unit` repeated to exactly `length` characters. */
export const run = (unit: string, length: number): string =>
  unit.repeat(Math.ceil(length / unit.length)).slice(0, length);

/** The input of issue 29 point 1: a 6+-letter word, then spaces without a newline (10,000 characters took 172 s). */
export const wordThenSpaces = (length: number): string => `abcdefgh${run(' ', length - 8)}`;

/** Repeated units and one-off prefixes, each filled to `length` characters. */
export function adversarialInputs(length: number): Record<string, string> {
  const half = Math.floor(length / 2);
  const units: Record<string, string> = {
    spaces: ' ',
    tabs: '\t',
    newlines: '\n',
    letters: 'a',
    upper: 'A',
    digits: '1',
    tokenChars: 'a1_-',
    doubleQuotes: '"',
    singleQuotes: "'",
    equals: '=',
    dashes: '-',
    colons: ':',
    slashes: '/',
    backslashes: '\\',
    at: '@',
    dollars: '$',
    brackets: '(',
    commas: ',',
    base64: 'QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo0NTY3ODkw',
    base64Lines: 'QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo0NTY3ODkw\n',
    hexPairs: 'ab ',
    digitSpace: '1 ',
    digitDash: '1-',
    keyValue: 'password=',
    shortPairs: 'a=',
    schemes: 'a://',
    passwordIs: 'password is ',
    passwordFor: 'password for ',
    beginArmor: '-----BEGIN ',
    awsIds: 'AKIAABCDEFGHIJKLMNOP ',
    awsIdDots: 'A.K.I.A.',
    awsIdPieces: 'AKIA 2B ',
    awsIdLookalikes: '\u0410\u041A\u0406\u0410 \u1D00',
    lowerPieces: 'akia a2 ',
    base64Groups: 'QUtJ ',
    base32: 'M5UHAX3RPA4TIUCF',
    unicodeEscapes: '\\u0067',
    hexEscapes: '\\x6b',
    percentEscapes: '%6B',
    htmlEntities: '&#x67;&#103;&lowbar;',
    byteArray: '{ 0x64, 0x64, 0x64, ',
    markdownStars: '**a1',
    markdownEscapes: '\\_a',
    wbrTags: 'ab1<wbr>',
    ansiColours: '\x1B[1;32ma',
    tokenHeads: 'ghp_abcd 1234abcd ',
    telegramHeads: 'bot123456789:AA',
    discordHooks: 'discord.com/api/webhooks/123456789012345678/',
    nestedBase64: 'VVVGTFNVRlhRVlJGVTFSRFVsSkZSRk09 ',
    cardLike: '4111111111111 ',
    emailDots: 'a.',
    tags: '<a>',
    quoteSpace: '" ',
    escapedQuotes: '\\"',
    wordLines: 'abcdef1 \n',
    mixed: 'aB3+/ \t',
  };
  const inputs: Record<string, string> = {};
  for (const [name, unit] of Object.entries(units)) inputs[name] = run(unit, length);
  const prefixed: Record<string, [string, string, string]> = {
    wordThenSpaces: ['abcdefgh', ' ', ''],
    wordThenTabs: ['abcdef', '\t', ''],
    tokenSpacesNewline: ['abcdef1', ' ', '\n    '],
    passwordIsSpaces: ['password is', ' ', ''],
    passwordColonSpaces: ['password is:', ' ', ':'],
    keySpaces: ['key', ' ', '='],
    keyEqualsSpaces: ['key=', ' ', ''],
    openQuote: ['k="', 'a', ''],
    openTag: ['<a ', ' ', ''],
    useSpaces: ['use ', ' ', ''],
    urlPassword: ['a://u:', 'x', '!@host'],
    emailLocal: ['', 'a.', '@'],
    oddHex: ['', 'ab', 'a'],
    beginLabel: ['-----BEGIN ', 'A ', ''],
    machine: ['machine ', 'a ', ''],
    wifiFields: ['WIFI:', 'T:a;', 'P:'],
    signInAs: ['sign in as `root` with', ' ', '`a'],
    pwForSpaces: ['pw for the vpn', ' ', ':'],
    passwortWords: ['das Passwort', ' ab', ' lautet'],
    passwortSpaces: ['Passwort lautet', ' ', ''],
    cjkPassword: ['パスワードは', 'a', ''],
    credsSlash: ['creds: ', 'a / ', ''],
    loginIsSpaces: ['login is admin,', ' ', 'pass is'],
    guillemets: ['mot de passe est «', ' a', ''],
    htpasswdFlags: ['htpasswd ', '-b ', ''],
    mysqlFlags: ['mysql ', '-x ', ''],
    oracleSlashes: ['', 'a/bcde@', ''],
    privateLabelSpaces: ['-----BEGIN ', 'RSA  ', 'PRIVATE  KEY'],
    armorBlocks: [
      '',
      '-----BEGIN PUBLIC KEY-----\nMHcCAQEEIKTZZAI1WOxvLLvMh9B5\n-----END PUBLIC KEY-----\n',
      '',
    ],
  };
  for (const [name, [prefix, unit, suffix]] of Object.entries(prefixed)) {
    inputs[name] = prefix + run(unit, length - prefix.length - suffix.length) + suffix;
  }
  inputs.armorHeadersOneLine = `${run('-----BEGIN A-----', half)}\n${run('AAAA\n', length - half - 1)}`;
  inputs.indentedAssignments = `${run(' ', half)}${run('user=ab ', length - half - 20)}\npassword=Hunter22x`;
  return inputs;
}
