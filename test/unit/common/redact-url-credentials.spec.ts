import { displayUrl, redactUrlCredentials } from '../../../src/common/redact-url-credentials';

describe('URL credentials in messages', () => {
  it('replaces the user-info of every URL in a text, up to the last @ before the host', () => {
    expect(
      redactUrlCredentials(
        'Request cannot be constructed from a URL that includes credentials: http://bob:s3cret@host:1/mcp',
      ),
    ).toBe('Request cannot be constructed from a URL that includes credentials: http://***@host:1/mcp');
    expect(redactUrlCredentials('a mongodb://u:p@ss@db/x and redis://:pw@cache')).toBe(
      'a mongodb://***@db/x and redis://***@cache',
    );
  });

  it('leaves URLs without user-info alone, an @ in a path or query included', () => {
    const text = 'https://example.com/users/@bob?mail=a@b.example and http://host:3000/mcp';
    expect(redactUrlCredentials(text)).toBe(text);
  });

  it('shows a URL without its user name and password', () => {
    expect(displayUrl(new URL('http://bob:s3cret@host/mcp'))).toBe('http://***@host/mcp');
    expect(displayUrl(new URL('https://host/mcp'))).toBe('https://host/mcp');
  });
});
