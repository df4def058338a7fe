/**
 * `scheme://user:password@host` → `scheme://***@host` wherever it occurs in a text (error messages echo the URLs
 * they failed on: fetch's does). Everything up to the last `@` before the host's end is user-info.
 */
const URL_USER_INFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#"'<>\\]*@/gi;

export function redactUrlCredentials(text: string): string {
  return text.replace(URL_USER_INFO, '$1***@');
}

/** A URL as text, its user-info (if any) replaced by `***`. */
export function displayUrl(url: URL): string {
  if (url.username === '' && url.password === '') return url.href;
  const shown = new URL(url.href);
  shown.username = '';
  shown.password = '';
  return shown.href.replace('://', '://***@');
}
