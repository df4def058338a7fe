/**
 * Every response a Cairn server under test gives to `fetch` is checked against the /openapi.json it serves, not only
 * those of the `http()` helper: a spec that calls `fetch` directly (raw bodies, headers, the typed client, the
 * grounding runner) keeps the document true as well. Registered in jest.config.js (setupFilesAfterEnv).
 */
import { cairnServers, openApiValidator } from './openapi-validator';

const original = globalThis.fetch;

function urlOf(input: Parameters<typeof fetch>[0]): URL | null {
  try {
    return new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
  } catch {
    return null;
  }
}

globalThis.fetch = async (input: Parameters<typeof fetch>[0], init?: RequestInit): Promise<Response> => {
  const url = urlOf(input);
  const checked = url !== null && cairnServers.has(url.origin) && url.pathname !== '/openapi.json';
  // The document first: the request may be the last one a closing server answers.
  const validator = checked ? await openApiValidator(url.origin) : null;
  const response = await original(input, init);
  if (validator === null || url === null) return response;
  const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
  const type = response.headers.get('content-type');
  let body: unknown = null;
  if (type?.startsWith('application/json')) {
    const text = await response.clone().text();
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = text;
    }
  }
  if (type?.startsWith('application/json') || !response.ok)
    validator.check(method, url.href, response.status, type, body);
  return response;
};
