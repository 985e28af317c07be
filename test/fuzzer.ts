/**
 * A seeded request fuzzer over every route the OpenAPI description declares, shared by the
 * short CI run (test/fuzz.test.ts) and the long run (bench/fuzz.ts).
 *
 * Requests are built from the routes' own parameter schemas: mostly plausible values (so the
 * handlers run deep), mixed with hostile ones (unicode and control characters, huge values,
 * path traversal, bad percent-encoding, bad JSON, wrong methods, odd headers). Each response
 * is checked for what a caller must never see: a 5xx, an error that is not problem+json with a
 * documented code, or a storage path, speaker id, bucket or internal URL.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** A small, fast, seedable PRNG (mulberry32): the same seed gives the same requests. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The JSON Schema keywords the fuzzers read (OpenAPI parameters, MCP tool inputs). */
export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  default?: unknown;
}

export interface FuzzParam {
  name: string;
  in: 'query' | 'path' | 'header';
  schema: JsonSchema;
}

/** One declared operation. */
export interface FuzzTarget {
  method: string;
  /** OpenAPI path template, e.g. /api/v1/syllables/{lang}. */
  path: string;
  params: FuzzParam[];
  body?: JsonSchema;
}

/** Every operation in an OpenAPI 3 document. */
export function targetsFromOpenApi(doc: { paths: Record<string, Record<string, { parameters?: FuzzParam[]; requestBody?: { content?: Record<string, { schema?: JsonSchema }> } }>> }): FuzzTarget[] {
  const out: FuzzTarget[] = [];
  for (const [p, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const body = op.requestBody?.content?.['application/json']?.schema;
      out.push({ method: method.toUpperCase(), path: p, params: op.parameters ?? [], ...(body ? { body } : {}) });
    }
  }
  return out;
}

/** The error codes docs/errors.md documents (one `## code` heading each). */
export function documentedCodes(): Set<string> {
  const file = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'errors.md');
  return new Set([...readFileSync(file, 'utf8').matchAll(/^## ([a-z0-9_]+)\s*$/gm)].map((m) => m[1]!));
}

/** Plausible values the handlers know, so that requests get past validation and run deep. */
export interface Vocabulary {
  /** Values for a parameter name (language, root, subject, tense, iso, recording_id, ...). */
  byName: Record<string, string[]>;
  /** Bearer keys to send: the first is used most often. */
  keys: string[];
}

const HOSTILE: string[] = [
  '',
  ' ',
  '../../etc/passwd',
  '..%2f..%2fetc%2fpasswd',
  '%2e%2e%2f%2e%2e%2f',
  '....//....//',
  '/etc/passwd',
  'C:\\Windows\\win.ini',
  '%00',
  '\u0000',
  'a\u0000b',
  '\r\nX-Injected: 1',
  '\u202eevil',
  '\ufeff',
  '\ud83d\ude00',
  'p\u0301enda',
  'ＰＥＮＤＡ',
  "' OR 1=1 --",
  '"; DROP TABLE keys; --',
  '<script>alert(1)</script>',
  '${jndi:ldap://x}',
  '{{7*7}}',
  '%',
  '%%',
  '%zz',
  '%c0%ae',
  'NaN',
  'Infinity',
  '-1',
  '0',
  '1e308',
  '9007199254740993',
  '0x10',
  'true',
  'null',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  'toString',
];

export const pick = <T>(rand: () => number, list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;

function longString(rand: () => number): string {
  const unit = pick(rand, ['a', 'é', '\u0301', '\ud83d\ude00', '%', '/', 'ŋ']);
  return unit.repeat(pick(rand, [65, 257, 4097, 70_000]));
}

/** 1..`max` code points from ASCII, controls, Latin, combining marks, lone surrogates, private use and emoji. */
export function randomUnicode(rand: () => number, max = 12): string {
  let s = '';
  const n = 1 + Math.floor(rand() * max);
  for (let i = 0; i < n; i++) {
    const range = pick(rand, [
      [0x20, 0x7e],
      [0x00, 0x1f],
      [0x80, 0x24f],
      [0x300, 0x36f],
      [0xd800, 0xdfff],
      [0xe000, 0xffff],
      [0x1f600, 0x1f64f],
    ] as const);
    s += String.fromCodePoint(range[0] + Math.floor(rand() * (range[1] - range[0] + 1)));
  }
  return s;
}

/** A value for one parameter: plausible about two times in three, hostile otherwise. */
function value(rand: () => number, name: string, schema: JsonSchema, vocab: Vocabulary): string {
  const r = rand();
  if (r < 0.65) {
    if (schema.enum && schema.enum.length > 0) return String(pick(rand, schema.enum));
    const known = vocab.byName[name];
    if (known && known.length > 0) return pick(rand, known);
    const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
    if (type === 'integer' || type === 'number') {
      const lo = schema.minimum ?? 0;
      const hi = Math.min(schema.maximum ?? 1000, lo + 1000);
      return String(pick(rand, [lo, hi, lo + Math.floor(rand() * (hi - lo + 1)), (schema.maximum ?? hi) + 1, lo - 1]));
    }
    if (type === 'boolean') return pick(rand, ['true', 'false', '1', '0', 'yes']);
    return pick(rand, ['a', 'penda', 'swh', '1sg', 'x'.repeat(schema.maxLength ?? 8)]);
  }
  if (r < 0.85) return pick(rand, HOSTILE);
  if (r < 0.95) return randomUnicode(rand);
  return longString(rand);
}

/** Percent-encodes a value for a URL, sometimes leaving it raw or half-encoded on purpose. */
function encode(rand: () => number, v: string): string {
  const r = rand();
  let encoded: string;
  try {
    encoded = encodeURIComponent(v);
  } catch {
    // lone surrogates cannot be encoded: send the bytes of a replacement character instead
    encoded = encodeURIComponent(v.replace(/[\ud800-\udfff]/g, '\ufffd'));
  }
  if (r < 0.85) return encoded;
  if (r < 0.95) return encoded.replace(/%2F/gi, '/').replace(/%25/g, '%');
  return v.replace(/[\s#?\u0000-\u001f\u007f-\uffff]/gu, (c) => encodeURIComponent(c.replace(/[\ud800-\udfff]/g, '\ufffd')));
}

/** A JSON body from a schema, mostly valid in shape. */
/**
 * Shapes that cost a careless server dearly: an array past every batch ceiling, nesting
 * thousands deep, a string past every body limit. Rare, so the run stays fast.
 */
export function oversized(rand: () => number): unknown {
  const r = rand();
  if (r < 0.4) return Array.from({ length: pick(rand, [5_001, 20_000]) }, () => pick(rand, [{}, 'a', 1]));
  if (r < 0.7) {
    let nested: unknown = 'penda';
    for (let i = pick(rand, [200, 1_500]); i > 0; i--) nested = rand() < 0.5 ? [nested] : { a: nested };
    return nested;
  }
  return pick(rand, ['x', 'ŋ', '\ud83d\ude00']).repeat(pick(rand, [300_000, 1_200_000]));
}

function bodyFor(rand: () => number, schema: JsonSchema | undefined, vocab: Vocabulary, depth = 0): unknown {
  if (!schema || depth > 4) return null;
  if (depth <= 2 && rand() < 0.01) return oversized(rand);
  const options = schema.anyOf ?? schema.oneOf;
  if (options && options.length > 0) return bodyFor(rand, pick(rand, options), vocab, depth + 1);
  if (schema.enum && schema.enum.length > 0) return rand() < 0.9 ? pick(rand, schema.enum) : pick(rand, HOSTILE);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'object' || schema.properties) {
    const out: Record<string, unknown> = {};
    for (const [k, s] of Object.entries(schema.properties ?? {})) {
      const required = schema.required?.includes(k) ?? false;
      if (!required && rand() < 0.5) continue;
      if (required && rand() < 0.03) continue;
      const known = vocab.byName[k];
      out[k] = known && rand() < 0.6 ? pick(rand, known) : bodyFor(rand, s, vocab, depth + 1);
    }
    if (rand() < 0.05) out[pick(rand, ['__proto__', 'unknown_field', 'constructor'])] = { polluted: true };
    return out;
  }
  if (type === 'array') {
    const n = pick(rand, [0, 1, 2, 3, 11, 51, 501]);
    return Array.from({ length: n }, () => bodyFor(rand, schema.items, vocab, depth + 1));
  }
  if (type === 'integer' || type === 'number') return pick(rand, [0, 1, -1, 3, 1e308, 2 ** 53 + 1, 0.5, schema.maximum ?? 10]);
  if (type === 'boolean') return rand() < 0.9 ? rand() < 0.5 : 'true';
  return rand() < 0.7 ? pick(rand, ['penda', 'swh', '1sg', 'present', 'c7']) : value(rand, '', { type: 'string' }, vocab);
}

export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'];
const STRAY_PATHS = [
  '/api/v1/../../etc/passwd',
  '/api/v1/%2e%2e/%2e%2e/etc/passwd',
  '/api/audio/..%2F..%2Fdata%2Flugha.db',
  '/api/audio/audio/..%2f..%2fblobs',
  '/api/v1/syllables/..%5c..%5cwindows',
  '/api/v2/conjugate',
  '/API/V1/LANGUAGES',
  '//api//v1//languages',
  '/api/v1/conjugate/',
  '/api/v1/languages?page=1&page=2',
  '/v1/conjugate?language=sw&root=penda&subject=1sg&tense=present',
  '/data/lugha.db',
  '/.env',
  '/%',
  '/%00',
  '/docs/../openapi.json',
];

/** The `index`-th request of the run for `seed` (deterministic: same seed and index, same request). */
export function buildRequest(rand: () => number, targets: readonly FuzzTarget[], vocab: Vocabulary): FuzzRequest {
  const headers: Record<string, string> = {};
  const auth = rand();
  if (auth < 0.7) headers.authorization = `Bearer ${vocab.keys[0]}`;
  else if (auth < 0.8 && vocab.keys.length > 1) headers.authorization = `Bearer ${pick(rand, vocab.keys.slice(1))}`;
  else if (auth < 0.87)
    headers.authorization = pick(rand, ['Bearer', 'Bearer lugha_short', `Basic ${Buffer.from('a:b').toString('base64')}`, `Bearer ${'x'.repeat(5000)}`, 'Bearer lugha_' + 'A'.repeat(43), `bearer  ${vocab.keys[0]}`]);
  if (rand() < 0.1) headers.accept = pick(rand, ['text/html', 'application/xml', '*/*', 'application/problem+json', '\u00ff']);
  if (rand() < 0.05) headers.range = pick(rand, ['bytes=0-10', 'bytes=-5', 'bytes=99999999-', 'bytes=abc', 'bytes=5-1', 'bytes=0-1,3-4', 'items=0-1']);
  if (rand() < 0.05) headers.origin = pick(rand, ['https://evil.example', 'null', 'http://127.0.0.1:1']);
  if (rand() < 0.03) headers['x-forwarded-for'] = pick(rand, ['1.2.3.4', '::1', 'garbage', '1.1.1.1, 2.2.2.2']);
  if (rand() < 0.05) headers['if-none-match'] = pick(rand, ['*', '"abc"', 'W/"x"', 'not-an-etag']);

  if (rand() < 0.04) return { method: pick(rand, ['GET', 'HEAD', 'POST']), url: pick(rand, STRAY_PATHS), headers };

  const target = pick(rand, targets);
  const method = rand() < 0.08 ? pick(rand, METHODS) : target.method;
  let p = target.path;
  const query: string[] = [];
  for (const param of target.params) {
    if (param.in === 'path') {
      p = p.replace(`{${param.name}}`, encode(rand, value(rand, param.name, param.schema, vocab)) || 'x');
    } else if (param.in === 'query') {
      if (rand() < 0.2) continue;
      query.push(`${encode(rand, param.name)}=${encode(rand, value(rand, param.name, param.schema, vocab))}`);
      if (rand() < 0.03) query.push(`${param.name}=${encode(rand, value(rand, param.name, param.schema, vocab))}`);
    }
  }
  if (rand() < 0.05) query.push(`${encode(rand, pick(rand, ['unknown', 'include_tones', '__proto__', '%', 'a[b]']))}=${encode(rand, pick(rand, HOSTILE))}`);
  const url = query.length > 0 ? `${p}?${query.join('&')}` : p;
  if (method === 'POST' || method === 'PUT' || method === 'PATCH') {
    const r = rand();
    let payload: string;
    if (r < 0.75) payload = JSON.stringify(bodyFor(rand, target.body, vocab));
    else if (r < 0.85) payload = pick(rand, ['{', '{"items": [', 'null', '[]', '"string"', '{"a":1}{"b":2}', '\u0000', '{"__proto__": {"admin": true}}']);
    else if (r < 0.95) payload = JSON.stringify({ items: Array.from({ length: 2000 }, () => ({ root: 'penda' })) });
    else payload = randomUnicode(rand);
    headers['content-type'] = rand() < 0.9 ? 'application/json' : pick(rand, ['text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1', 'multipart/form-data; boundary=x', '']);
    return { method, url, headers, payload };
  }
  return { method, url, headers };
}

export interface FuzzResponse {
  statusCode: number;
  headers: Record<string, unknown>;
  body: string;
}

/** Everything wrong with one response; empty when it is acceptable. */
export function violations(request: FuzzRequest, response: FuzzResponse, codes: ReadonlySet<string>, secrets: readonly string[]): string[] {
  const out: string[] = [];
  if (response.statusCode >= 500) out.push(`status ${response.statusCode}`);
  const type = String(response.headers['content-type'] ?? '');
  // The MCP endpoint answers a message it cannot accept in its own protocol: a JSON-RPC error object.
  const jsonRpcError = request.url.split('?')[0] === '/mcp' && type.startsWith('application/json') && isJsonRpcError(response.body);
  if (response.statusCode >= 400 && request.method !== 'HEAD' && !jsonRpcError) {
    if (!type.startsWith('application/problem+json')) out.push(`error without problem+json (${type || 'no content-type'})`);
    else {
      try {
        const problem = JSON.parse(response.body) as Record<string, unknown>;
        if (typeof problem.type !== 'string' || typeof problem.title !== 'string') out.push('problem without type/title');
        if (problem.status !== response.statusCode) out.push(`problem status ${String(problem.status)} != ${response.statusCode}`);
        if (typeof problem.code !== 'string' || !codes.has(problem.code)) out.push(`undocumented code ${String(problem.code)}`);
      } catch {
        out.push('problem body is not JSON');
      }
    }
  }
  const sent = `${request.url}\n${request.payload ?? ''}\n${Object.values(request.headers).join('\n')}`;
  const seen = `${response.body}\n${Object.entries(response.headers)
    .map(([k, v]) => `${k}: ${String(v)}`)
    .join('\n')}`;
  for (const secret of secrets) {
    if (secret && seen.includes(secret) && !sent.includes(secret)) out.push(`leaks ${JSON.stringify(secret)}`);
  }
  if (/\n\s+at [\w.<>]+ \(|node_modules\//.test(response.body)) out.push('leaks a stack trace or module path');
  return out;
}

function isJsonRpcError(body: string): boolean {
  try {
    const message = JSON.parse(body) as { jsonrpc?: unknown; error?: { code?: unknown; message?: unknown } };
    return message.jsonrpc === '2.0' && typeof message.error?.code === 'number' && typeof message.error.message === 'string';
  } catch {
    return false;
  }
}
