/**
 * A seeded fuzzer of the MCP tools, shared by the short CI run (test/mcp-fuzz.test.ts) and the
 * long run (bench/fuzz.ts, LUGHA_MCP_FUZZ_CALLS). Every call goes through an in-process MCP
 * client to a server built for keys of several tiers, with arguments generated from the tool's
 * advertised input JSON schema: mostly plausible values (so the handlers run deep), mixed with
 * missing and extra fields, wrong types, unicode and control characters, huge strings and
 * numbers, and path traversal in language codes and model names.
 *
 * Each result is checked for what a model must never see: a protocol-level error (the call
 * throws), an internal error or an output that fails its own schema, a tool failure that is not
 * an `isError` result with a documented code and a hint on what to fix, or a data-directory or
 * package path, speaker id, bucket or internal URL it did not send itself.
 */
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { ingest } from '../src/audio/ingest.js';
import { packageRoot } from '../src/config.js';
import { numeralClips, writeCorpus } from './audio-fixtures.js';
import { documentedCodes, oversized, pick, prng, randomUnicode as anyUnicode, type JsonSchema } from './fuzzer.js';
import { hfstForTests, kipoModelsFolder } from './hfst-fixtures.js';
import { harness, tempDir, type Harness } from './helpers.js';
import { linkedClient, textOf, type LinkedClient } from './mcp-support.js';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { NO_STALL, StallWatch, type Stall } from './stall-watch.js';

const randomUnicode = (rand: () => number) => anyUnicode(rand, 16);

export { prng };

/** One tool as the server lists it. */
export interface McpFuzzTarget {
  name: string;
  input: JsonSchema;
}

/** Plausible values by argument name, so that calls get past validation and run deep. */
export type McpVocabulary = Record<string, unknown[]>;

/** One generated call: the tool, the arguments, and which client (tier) sends it. */
export interface McpFuzzCall {
  tool: string;
  arguments: Record<string, unknown> | undefined;
  client: number;
}

/** Hostile strings: traversal, injection, control and odd unicode, numbers in strings. */
export const HOSTILE_STRINGS: readonly string[] = [
  '',
  ' ',
  '..',
  '../',
  '../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '%2e%2e%2f%2e%2e%2f',
  '....//....//',
  '/etc/passwd',
  'file:///etc/passwd',
  'swh/../zul',
  'swh\u0000',
  'a\u0000b',
  '\r\nX-Injected: 1',
  '\u202eevil',
  '\ufeff',
  '\ud83d\ude00',
  '\ud800',
  'p\u0301enda',
  'ＰＥＮＤＡ',
  'SWH',
  "' OR 1=1 --",
  '<script>alert(1)</script>',
  '${jndi:ldap://x}',
  '{{7*7}}',
  '%s%s%n',
  'NaN',
  '-1',
  '1e308',
  '9007199254740993',
  'null',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
];

/** Values of the wrong type for any argument. */
const WRONG_TYPES: readonly unknown[] = [null, true, 0, -1, 1e308, -1e308, 2 ** 53 + 1, 0.5, [], ['swh'], {}, { language: 'swh' }, [[[]]], 'x'];

function longString(rand: () => number): string {
  return pick(rand, ['a', 'é', '\u0301', '\ud83d\ude00', '/', 'ŋ', '<v>', '../']).repeat(pick(rand, [33, 65, 101, 501, 4097, 70_000]));
}

function hostileString(rand: () => number): string {
  const r = rand();
  if (r < 0.6) return pick(rand, HOSTILE_STRINGS);
  if (r < 0.85) return randomUnicode(rand);
  return longString(rand);
}

/** A value for one argument: plausible most of the time, hostile or of the wrong type otherwise. */
function valueFor(rand: () => number, name: string, schema: JsonSchema, vocab: McpVocabulary, depth: number, hostility: number): unknown {
  const r = rand();
  const known = vocab[name];
  if (r >= hostility) return known && known.length > 0 && rand() < 0.7 ? structuredClone(pick(rand, known)) : plausible(rand, schema, vocab, depth, hostility);
  if (r < hostility * 0.6) return hostileString(rand);
  if (r < hostility * 0.63) return oversized(rand);
  return structuredClone(pick(rand, WRONG_TYPES));
}

/** A value shaped by the schema (enum member, number in range or at its edges, array of items, object of properties). */
function plausible(rand: () => number, schema: JsonSchema, vocab: McpVocabulary, depth: number, hostility: number): unknown {
  if (depth > 4) return null;
  const options = schema.anyOf ?? schema.oneOf;
  if (options && options.length > 0) return plausible(rand, pick(rand, options), vocab, depth + 1, hostility);
  if (schema.enum && schema.enum.length > 0) return rand() >= hostility ? pick(rand, schema.enum) : hostileString(rand);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'object' || schema.properties) return objectFor(rand, schema, vocab, depth + 1, hostility);
  if (type === 'array') {
    const n = rand() >= hostility ? pick(rand, [1, 1, 2, 3, 5]) : pick(rand, [0, (schema.maxItems ?? 50) + 1, 51, 501]);
    const itemName = schema.items?.properties ? '' : '$item';
    return Array.from({ length: Math.min(n, 2000) }, () => (itemName && vocab[itemName] && rand() < 0.5 ? pick(rand, vocab[itemName]!) : plausible(rand, schema.items ?? {}, vocab, depth + 1, hostility)));
  }
  if (type === 'integer' || type === 'number') {
    const lo = schema.minimum ?? 0;
    const hi = schema.maximum ?? 1000;
    return rand() >= hostility ? pick(rand, [lo, hi, lo + Math.floor(rand() * Math.min(hi - lo + 1, 1000))]) : pick(rand, [hi + 1, lo - 1, 1e308, -0, 0.5, 2 ** 53 + 1]);
  }
  if (type === 'boolean') return rand() < 0.9 ? rand() < 0.5 : 'true';
  if (schema.maxLength !== undefined && rand() < hostility) return 'x'.repeat(schema.maxLength + pick(rand, [0, 1]));
  return pick(rand, ['penda', 'swh', '1sg', 'present', 'c7', 'a', 'tɛ́ma', 'bula<n><pl>']);
}

/** An object from its schema: required fields nearly always, optional ones half the time, sometimes an extra one. */
function objectFor(rand: () => number, schema: JsonSchema, vocab: McpVocabulary, depth: number, hostility: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, s] of Object.entries(schema.properties ?? {})) {
    const required = schema.required?.includes(k) ?? false;
    if (!required && rand() < 0.5) continue;
    if (required && rand() < hostility * 0.1) continue;
    out[k] = valueFor(rand, k, s, vocab, depth, hostility);
  }
  if (rand() < hostility * 0.1) out[pick(rand, ['unknown_field', 'constructor', 'include_tones', 'page', 'key'])] = pick(rand, [true, 'x', 1, { polluted: true }]);
  if (rand() < 0.02) Object.defineProperty(out, '__proto__', { value: { polluted: true }, enumerable: true, configurable: true, writable: true });
  return out;
}

/** The next call of a run: the tool, its arguments and the client (tier) that sends it. */
export function buildCall(rand: () => number, targets: readonly McpFuzzTarget[], vocab: McpVocabulary, clients: number): McpFuzzCall {
  const target = pick(rand, targets);
  const client = rand() < 0.8 ? 0 : 1 + Math.floor(rand() * Math.max(clients - 1, 0));
  // About half the calls are plausible throughout (they reach the handlers); the others are hostile field by field.
  const hostility = rand() < 0.5 ? 0.02 : 0.35;
  const r = rand();
  let args: Record<string, unknown> | undefined;
  if (r < 0.93) args = objectFor(rand, target.input, vocab, 0, hostility);
  else if (r < 0.96) args = {};
  else if (r < 0.98) args = undefined;
  else args = { ...objectFor(rand, target.input, vocab, 0, hostility), ...objectFor(rand, target.input, vocab, 0, 0.35) };
  // What a real client sends is JSON: lone surrogates and -0 survive, undefined fields do not.
  return { tool: target.name, arguments: args === undefined ? undefined : (JSON.parse(JSON.stringify(args)) as Record<string, unknown>), client: Math.min(client, clients - 1) };
}

/** How Lugha's server refuses arguments outside a tool's schema (validated after metering, in src/mcp/server.ts). */
const SCHEMA_REFUSAL = "invalid_parameter: the arguments do not match the tool's input schema";

/** Codes whose message itself says what to do (wait, change key, split the call), so they need no argument hint. */
const SELF_EXPLAINING = new Set(['not_in_tier', 'quota_exceeded', 'key_revoked', 'key_expired', 'invalid_key', 'batch_too_large']);

/** Everything wrong with one tool result; empty when it is acceptable. */
export function mcpViolations(call: McpFuzzCall, result: { isError?: unknown; content?: unknown; structuredContent?: unknown }, codes: ReadonlySet<string>, secrets: readonly string[]): string[] {
  const out: string[] = [];
  const text = textOf(result);
  if (result.isError === true) {
    if (text.startsWith('Output validation error')) out.push('the output failed its own schema');
    else if (text.startsWith('Input validation error: Invalid arguments for tool')) {
      // The SDK's answer to arguments outside the schema: `argument: what was expected`, or the unrecognised key by name.
      const detail = text.replace(/^Input validation error: Invalid arguments for tool [\w-]+: /, '');
      if (!/^[\w.]+: \S/.test(detail) && !/^Unrecognized keys?: "/.test(detail)) out.push('input validation error without the argument and what it expects');
    } else {
      const code = /^([a-z0-9_]+): /.exec(text)?.[1];
      if (!code) out.push(`error text without a code: ${JSON.stringify(text.slice(0, 120))}`);
      else if (code === 'internal_error') out.push('internal error');
      else if (!codes.has(code)) out.push(`undocumented code ${code}`);
      else if (!SELF_EXPLAINING.has(code) && !/\nFix the `[^`]+` argument\./.test(text)) {
        out.push(`error without a fix hint: ${JSON.stringify(text.slice(0, 160))}`);
      }
    }
  } else {
    if (result.structuredContent === undefined || result.structuredContent === null || typeof result.structuredContent !== 'object') out.push('success without structured content');
    else {
      // `summary\njson` or `json`: the summary is one line, the JSON the last.
      const lines = text.split('\n');
      if (lines.length > 2) out.push(`the summary is not one line (${lines.length - 1} lines before the JSON)`);
      const json = lines[lines.length - 1]!;
      try {
        if (JSON.stringify(JSON.parse(json)) !== JSON.stringify(result.structuredContent)) out.push('text and structured content differ');
      } catch {
        out.push('the text does not carry the JSON');
      }
    }
  }
  const sent = JSON.stringify(call.arguments ?? {});
  for (const secret of secrets) {
    if (secret && text.includes(secret) && !sent.includes(JSON.stringify(secret).slice(1, -1))) out.push(`leaks ${JSON.stringify(secret)}`);
  }
  if (/\n\s+at [\w.<>]+ \(|node_modules\//.test(text)) out.push('leaks a stack trace or module path');
  return out;
}

export interface McpFuzzStack {
  h: Harness;
  targets: McpFuzzTarget[];
  vocab: McpVocabulary;
  secrets: string[];
  codes: Set<string>;
  /** Linked clients: an Enterprise key first (most calls), then Startup and Academic keys. */
  clients: LinkedClient[];
  close(): Promise<void>;
}

/**
 * The stack the MCP fuzzer runs against: an ingested audio corpus (so speaker ids exist to leak),
 * a models folder with the Kipo transducers compiled in this run and one unreadable file (when
 * the HFST tools are installed; CI requires them), and clients of three tiers.
 */
export async function mcpFuzzStack(): Promise<McpFuzzStack> {
  const work = tempDir('lugha-mcp-fuzz-');
  const hfst = hfstForTests();
  let models: string | undefined;
  if (hfst) {
    models = kipoModelsFolder(work);
    copyFileSync(path.join(work, 'build', 'kipo.ana.hfst'), path.join(models, 'raw.hfstol'));
    writeFileSync(path.join(models, 'raw.model.yaml'), 'file: raw.hfstol\nlanguage: und\ndirection: analyse\ntags: x\nlicence: MIT\nsource: x\n');
  }
  const h = await harness(models ? { flags: { modelsDir: models } } : {});
  const speakers: string[] = [];
  const corpus = path.join(work, 'corpus');
  mkdirSync(corpus, { recursive: true });
  const consented = ['swh-s1', 'swh-s2'];
  speakers.push(...consented);
  writeCorpus(corpus, numeralClips('swh', 200), consented);
  const report = await ingest(corpus, h.services);
  if (report.ingested === 0) throw new Error(`MCP fuzz corpus: ${JSON.stringify(report.refused)}`);

  const clients = [await linkedClient(h, 'enterprise'), await linkedClient(h, 'startup'), await linkedClient(h, 'academic')];
  const { tools } = await clients[0]!.client.listTools();
  // Every client holds the listing, so each checks results against the tools' output schemas.
  for (const c of clients.slice(1)) await c.client.listTools();
  const targets = tools.map((t) => ({ name: t.name, input: t.inputSchema as JsonSchema }));

  const languages = h.services.morphology.languages();
  const tenses = [...new Set(languages.flatMap((l) => l.tenses.map((t) => t.id)))];
  const languageCodes = ['swh', 'sw', 'swa', 'zul', 'zu', 'sna', 'nya', 'lug', 'kin', 'kon', 'xho', 'bas', 'asa', 'und', 'eng', 'zzz', 'SW', ...HOSTILE_STRINGS.slice(2, 12)];
  const modelNames = [
    'kipo-analyser',
    'kipo-generator',
    'kipo-plain-analyser',
    'kipo',
    'raw',
    'nope',
    '../kipo-analyser',
    '../../etc/passwd',
    'kipo-analyser.hfstol',
    'kipo-analyser.model.yaml',
    '.',
    '..',
    '/etc/passwd',
    'models/kipo-analyser',
    'kipo-analyser\u0000',
    'KIPO-ANALYSER',
  ];
  const words = ['penda', 'kupenda', '-pend-', 'ninapenda', 'hawatakipenda', 'hamba', 'ngiyahamba', 'bika', 'soma', 'tɛ́ma', 'sítɛ́ma', 'mibula', 'oo', 'qq', 'xyzzy'];
  const vocab: McpVocabulary = {
    language: languageCodes,
    root: words,
    word: words,
    form: words,
    query: ['pend', 'love', 'write', 'person', 'a', '-'],
    tense: [...tenses, 'pluperfect'],
    tenses: [tenses.slice(0, 2), ['present', 'aorist'], []],
    subject: ['1sg', '2sg', '3sg', '1pl', '3pl', 'c1', 'c7', 'c10', 'c99', 'me'],
    subjects: [['1sg', '3pl'], ['c7'], ['c99']],
    object: ['1sg', 'c7', 'c9', 'refl', 'none'],
    model: modelNames,
    $item: ['tɛ́ma', 'bula', 'tɛ́m<v><past>', 'bula<n><pl>', 'tɛ́m<v><pres><neg>', 'oo', 'qq', '<v>'],
    inputs: [['tɛ́ma', 'sítɛ́ma'], ['tɛ́m<v><past>', 'bula<n><pl>'], ['oo'], Array.from({ length: 60 }, () => 'bula'), Array.from({ length: 1001 }, () => 'a')],
    number: ['0', '7', '22', '1234', '1000000', '1000000000000', '1000000000001', '-1', '1e6', ' 12 ', '2.5', '٣', '00000000000001'],
    class: ['c2', 'c8', 'c10', 'c1a', 'c99', 'c0', 'C2'],
    contains: ['a', 'nan', 'ɛ́'],
    gloss: ['numeral', 'water', 'person'],
    features: ['V;PRS;1;SG', 'V;PST;3;PL;NEG', 'N;PL', 'V;;'],
  };
  const secrets = [h.dataDir, packageRoot, work, ...(models ? [models] : []), ...speakers, 'file://', 'postgres://', 'redis://', 'lugha.db', 'blobs/', '.hfstol', '.model.yaml', 's3://', 'amazonaws.com'];
  return {
    h,
    targets,
    vocab,
    secrets,
    codes: documentedCodes(),
    clients,
    async close() {
      for (const c of clients) await c.close();
      await h.close();
      rmSync(work, { recursive: true, force: true });
    },
  };
}

/**
 * Makes one call (list_languages) from each client, so that a stall measured afterwards is the
 * server's. An SDK client that holds a tools/list compiles the output-schema validators of every
 * listed tool in one synchronous block on its first callTool (about 260 ms for 21 tools, profiled
 * with node --cpu-prof): the client's work in this process, which a model's client does in its own.
 */
export async function warmClients(clients: readonly LinkedClient[]): Promise<void> {
  for (const { client } of clients) await client.callTool({ name: 'list_languages', arguments: {} });
}

export interface McpFuzzRun {
  calls: number;
  perTool: Map<string, number>;
  /** Results by kind: ok, or the error code (validation for the SDK's input validation). */
  outcomes: Map<string, number>;
  failures: { index: number; call: McpFuzzCall; problems: string[]; text: string }[];
  /** The longest the event loop was blocked during the run, in ms (the service's goal: 100). */
  worstStallMs: number;
  /** The longest stall a 10 ms timer saw, with the calls in flight then, the process's CPU time and GC in it (test/stall-watch.ts). */
  worstStall: Stall<McpFuzzCall>;
  /** The gap between ticks in which the process used the most CPU (on a loaded machine, the work that would hold an idle one). */
  busiestStall: Stall<McpFuzzCall>;
  /** The call that took longest, wall clock. */
  slowest: { ms: number; call: McpFuzzCall | undefined };
}

/** Makes `count` calls generated from `seed`, checking each result. */
export async function runMcpFuzz(stack: McpFuzzStack, seed: number, count: number, concurrency = 8): Promise<McpFuzzRun> {
  const rand = prng(seed);
  const run: McpFuzzRun = { calls: 0, perTool: new Map(), outcomes: new Map(), failures: [], worstStallMs: 0, worstStall: NO_STALL, busiestStall: NO_STALL, slowest: { ms: 0, call: undefined } };
  // Calls are generated in order from the seed, so the same seed gives the same calls whatever the interleaving.
  const calls = Array.from({ length: count }, () => buildCall(rand, stack.targets, stack.vocab, stack.clients.length));
  let index = 0;
  const watch = new StallWatch<McpFuzzCall>();
  const next = async (): Promise<void> => {
    while (index < count) {
      const i = index++;
      const call = calls[i]!;
      run.perTool.set(call.tool, (run.perTool.get(call.tool) ?? 0) + 1);
      const client: Client = stack.clients[call.client]!.client;
      // The in-memory transport delivers by promise alone: a turn of the event loop between calls, as a real transport's I/O gives, so the stall measured is one call's.
      await new Promise<void>((resolve) => setImmediate(resolve));
      let result;
      const started = performance.now();
      const id = watch.begin(call);
      try {
        result = await client.callTool({ name: call.tool, ...(call.arguments === undefined ? {} : { arguments: call.arguments }) });
      } catch (error) {
        watch.end(id);
        run.calls++;
        run.outcomes.set('protocol_error', (run.outcomes.get('protocol_error') ?? 0) + 1);
        run.failures.push({ index: i, call, problems: [`protocol-level error: ${error instanceof Error ? error.message.slice(0, 300) : String(error)}`], text: '' });
        continue;
      }
      watch.end(id);
      run.calls++;
      const ms = performance.now() - started;
      if (ms > run.slowest.ms) run.slowest = { ms, call };
      const text = textOf(result);
      const schemaRefusal = text.startsWith('Input validation error') || text.startsWith(SCHEMA_REFUSAL);
      const kind = result.isError === true ? (schemaRefusal ? 'validation' : (/^([a-z0-9_]+): /.exec(text)?.[1] ?? 'other')) : 'ok';
      run.outcomes.set(kind, (run.outcomes.get(kind) ?? 0) + 1);
      const problems = mcpViolations(call, result, stack.codes, stack.secrets);
      if (problems.length > 0) run.failures.push({ index: i, call, problems, text: text.slice(0, 300) });
    }
  };
  const stalls = monitorEventLoopDelay({ resolution: 10 });
  stalls.enable();
  watch.start();
  await Promise.all(Array.from({ length: concurrency }, next));
  stalls.disable();
  const stall = watch.stop();
  run.worstStall = stall.longest;
  run.busiestStall = stall.busiest;
  run.worstStallMs = stalls.max / 1e6;
  return run;
}

/** One failure as a line a developer can reproduce from. */
export function describeFailure(f: McpFuzzRun['failures'][number]): string {
  const args = JSON.stringify(f.call.arguments);
  return `#${f.index} ${f.call.tool}(${args === undefined ? '' : args.slice(0, 200)}) [client ${f.call.client}]: ${f.problems.join('; ')}${f.text ? ` — ${JSON.stringify(f.text.slice(0, 200))}` : ''}`;
}
