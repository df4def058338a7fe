import { fieldNameWords, secretFieldReason } from '../../../src/tools/tool-secret-fields';

describe('secret-bearing field names', () => {
  it.each([
    ['password', 'password'],
    ['userPassword', 'password'],
    ['passwd', 'passwd'],
    ['api_key', 'api_key'],
    ['APIKey', 'api_key'],
    ['apikey', 'apikey'],
    ['client_secret', 'secret'],
    ['clientsecret', 'clientsecret'],
    ['access_token', 'token'],
    ['refreshtoken', 'refreshtoken'],
    ['sessionId', 'session'],
    ['set_cookie', 'cookie'],
    ['Authorization', 'authorization'],
    ['PRIVATE_KEY', 'private_key'],
    ['credentials', 'credentials'],
    ['ssn', 'ssn'],
    ['card_number', 'card_number'],
    ['OAuth2Token', 'auth'],
  ])('%s is secret-bearing (%s)', (name, why) => {
    expect(secretFieldReason(name)).toBe(why);
  });

  it.each([
    'key',
    'order_key',
    'author',
    'secretary',
    'status',
    'tracking_url',
    'tokenizer_version',
    'keyboard',
  ])('%s is an ordinary name', (name) => expect(secretFieldReason(name)).toBeNull());

  it('splits camelCase, acronyms, digits and separators', () => {
    expect(fieldNameWords('OAuth2TokenURL_value')).toEqual(['o', 'auth', 'token', 'url', 'value']);
  });
});
