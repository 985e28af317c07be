// The page's API client: the bearer key (memory + sessionStorage only), problem+json errors,
// and the quota read from the RateLimit headers of every metered answer.

const STORAGE_KEY = 'lugha.key';
let key = sessionStorage.getItem(STORAGE_KEY) ?? '';
const quotaListeners = new Set();

/** Where this service mounts its routes (the audio base is configurable: LUGHA_AUDIO_BASE). */
export const service = { audioBase: '/api/audio' };

export function currentKey() {
  return key;
}

/** Keeps `value` for this tab only (sessionStorage): closing the tab forgets it. */
export function setKey(value) {
  key = value.trim();
  if (key) sessionStorage.setItem(STORAGE_KEY, key);
  else sessionStorage.removeItem(STORAGE_KEY);
}

/** Calls `listener({ remaining, limit, resetSeconds })` whenever an answer carries RateLimit headers. */
export function onQuota(listener) {
  quotaListeners.add(listener);
}

/** Parses `RateLimit: "daily";r=99;t=41730` and `RateLimit-Policy: "daily";q=100;w=86400`. */
export function parseRateLimit(headers) {
  const limit = /;r=(\d+)/.exec(headers.get('RateLimit') ?? '');
  if (!limit) return undefined;
  const reset = /;t=(\d+)/.exec(headers.get('RateLimit') ?? '');
  const policy = /;q=(\d+)/.exec(headers.get('RateLimit-Policy') ?? '');
  return { remaining: Number(limit[1]), limit: policy ? Number(policy[1]) : null, resetSeconds: reset ? Number(reset[1]) : null };
}

/**
 * Fetches `path` with the key. Resolves to { ok, status, body, problem, headers, response };
 * `as` is 'json' (default), 'text' or 'bytes'. Never throws for HTTP or network failures.
 */
export async function call(path, { method = 'GET', body, as = 'json', auth = true, accept } = {}) {
  const headers = {};
  const sentWith = key;
  if (auth && key) headers.Authorization = `Bearer ${key}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (accept) headers.Accept = accept;
  let response;
  try {
    // Not from the browser's cache: an answer's RateLimit headers belong to the key that asked, and a
    // revalidated copy (304) keeps the headers of whichever key fetched it first.
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store' });
  } catch (error) {
    return { ok: false, status: 0, problem: { title: 'The service could not be reached', detail: String(error) } };
  }
  // An answer to a request sent with an earlier key (still in flight when another key was pasted)
  // says nothing of the current key's quota.
  const quota = sentWith === key ? parseRateLimit(response.headers) : undefined;
  if (quota) for (const listener of quotaListeners) listener(quota);
  const type = response.headers.get('Content-Type') ?? '';
  if (!response.ok) {
    const problem = /json/.test(type) ? await response.json().catch(() => ({})) : { title: `HTTP ${response.status}`, detail: await response.text() };
    return { ok: false, status: response.status, problem, headers: response.headers };
  }
  const parsed = as === 'bytes' ? await response.arrayBuffer() : as === 'text' ? await response.text() : await response.json();
  return { ok: true, status: response.status, body: parsed, headers: response.headers };
}

/** A shell command for the same request, with the key left in $LUGHA_API_KEY. */
export function curlFor(path, { method = 'GET', body } = {}) {
  const url = new URL(path, location.href).href;
  const parts = ['curl', '-H', '"Authorization: Bearer $LUGHA_API_KEY"'];
  if (method !== 'GET') parts.push('-X', method);
  if (body !== undefined) parts.push('-H', "'Content-Type: application/json'", '-d', `'${JSON.stringify(body).replaceAll("'", "'\\''")}'`);
  parts.push(`'${url.replaceAll("'", "'\\''")}'`);
  return parts.join(' ');
}
