/**
 * The service stack the fuzzer runs against: demo-like data (keys of several tiers, an ingested
 * corpus with a withdrawn speaker), the vocabulary of plausible values, and what must never leak.
 */
import { rmSync } from 'node:fs';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { ingest } from '../src/audio/ingest.js';
import { packageRoot } from '../src/config.js';
import { numeralClips, writeCorpus } from './audio-fixtures.js';
import { documentedCodes, prng, targetsFromOpenApi, buildRequest, violations, type FuzzRequest, type FuzzResponse, type FuzzTarget, type Vocabulary } from './fuzzer.js';
import { harness, tempDir, type Harness } from './helpers.js';
import { NO_STALL, StallWatch, type Stall } from './stall-watch.js';

export interface FuzzRun {
  requests: number;
  /** Requests per declared operation (METHOD path), to show every route was reached. */
  perTarget: Map<string, number>;
  statuses: Map<number, number>;
  failures: { index: number; request: FuzzRequest; status: number; problems: string[] }[];
  /** The longest the event loop was blocked during the run, in ms (the service's goal: 100). */
  worstStallMs: number;
  /** The longest stall a 10 ms timer saw, with the requests in flight then, the process's CPU time and GC in it (test/stall-watch.ts). */
  worstStall: Stall<FuzzRequest>;
  /** The gap between ticks in which the process used the most CPU (on a loaded machine, the work that would hold an idle one). */
  busiestStall: Stall<FuzzRequest>;
  /** The request that took longest, wall clock (on a busy machine, includes waiting for the CPU). */
  slowest: { ms: number; request: FuzzRequest | undefined };
  /** Requests not sent because their request line and headers exceed `maxHeaderSize` (see runFuzz). */
  overHeaderLimit: number;
}

export interface FuzzStack {
  h: Harness;
  targets: FuzzTarget[];
  vocab: Vocabulary;
  secrets: string[];
  codes: Set<string>;
  close(): Promise<void>;
}

export async function fuzzStack(): Promise<FuzzStack> {
  const h = await harness({ flags: { sampleCap: 3 } });
  const corpusDirs: string[] = [];
  const speakers: string[] = [];
  for (const [lang, base] of [
    ['swh', 200],
    ['zul', 300],
  ] as const) {
    const dir = tempDir('lugha-fuzz-corpus-');
    corpusDirs.push(dir);
    const consented = [`${lang}-s1`, `${lang}-s2`];
    speakers.push(...consented);
    writeCorpus(dir, numeralClips(lang, base), consented);
    const report = await ingest(dir, h.services);
    if (report.ingested !== 20) throw new Error(`fuzz corpus: ${JSON.stringify(report.refused)}`);
  }
  const enterprise = (await h.issue('enterprise', 'full')).key;
  const evaluation = (await h.issue('evaluation', 'evaluation')).key;
  const pilot = (await h.issue('academic', 'pilot', ['swh', 'zul', 'sna'])).key;
  const revoked = await h.issue('startup', 'full');
  await h.services.keys.revoke(revoked.id);

  const listing = await h.call(enterprise, '/api/audio/swh/audio?n=100');
  const recordingIds = (listing.json().data as { recording_id: string }[]).map((c) => c.recording_id);
  const languages = h.services.morphology.languages();
  const tenses = [...new Set(languages.flatMap((l) => l.tenses.map((t) => t.id)))];
  const forms: string[] = [];
  for (const [language, root] of [
    ['swh', 'penda'],
    ['zul', 'hamba'],
    ['sna', 'bika'],
  ] as const) {
    const r = h.services.morphology.conjugate({ language, root, subject: '1sg', tense: tenses.find((t) => t === 'present') ?? tenses[0]! });
    if (r.ok) forms.push(r.value.surface_form);
  }
  const codes = documentedCodes();
  const languageCodes = ['swh', 'sw', 'swa', 'zul', 'zu', 'sna', 'nya', 'lug', 'lin', 'kon', 'xho', 'bem', 'eng', 'zzz', 'SW'];
  const vocab: Vocabulary = {
    keys: [enterprise, evaluation, pilot, revoked.key],
    byName: {
      language: languageCodes,
      lang: languageCodes,
      iso: languageCodes,
      root: ['penda', 'kupenda', '-pend-', 'hamba', 'ukuhamba', 'bika', 'lya', 'soma', 'a', 'xyzzy'],
      lemma: ['penda', 'hamba', 'bika', 'soma'],
      subject: ['1sg', '2sg', '3sg', '1pl', '2pl', '3pl', 'c1', 'c7', 'c10', 'c99', 'me'],
      object: ['1sg', '3sg', 'c7', 'c9', 'refl', 'none'],
      tense: [...tenses, 'pluperfect'],
      polarity: ['positive', 'negative', 'both'],
      form: [...forms, 'ninapenda', 'ngiyahamba', 'hapana'],
      recording_id: [...recordingIds, ...recordingIds.map((id) => `${id}x`), recordingIds[0]!.toUpperCase()],
      type: [...codes].map((c) => c.replaceAll('_', '-')),
      features: ['V;PRS;1;SG', 'V;PST;3;PL;NEG', 'N;PL', 'V;;'],
    },
  };
  const openapi = await h.app.inject('/openapi.json');
  const targets = targetsFromOpenApi(openapi.json());
  const secrets = [h.dataDir, packageRoot, ...speakers, 'file://', 'postgres://', 'redis://', 'lugha.db', 'blobs/'];
  return {
    h,
    targets,
    vocab,
    secrets,
    codes,
    async close() {
      await h.close();
      for (const dir of corpusDirs) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The bytes of a request's request line and headers, which Node's HTTP parser holds to its `maxHeaderSize`. */
export function headerBytes(request: FuzzRequest): number {
  let n = Buffer.byteLength(`${request.method} ${request.url} HTTP/1.1\r\n`);
  for (const [name, value] of Object.entries(request.headers)) n += Buffer.byteLength(`${name}: ${value}\r\n`);
  return n;
}

/**
 * Sends `count` requests generated from `seed`, checking each response. With `maxHeaderSize`, a
 * request whose request line and headers are longer is generated (the same seed gives the same
 * requests) but not sent: a listening server's HTTP parser answers it 431 before any route code
 * runs (test/http-parser-errors.test.ts), which `inject` bypasses. Without it, every request is
 * injected, however long its URL.
 */
export async function runFuzz(stack: FuzzStack, seed: number, count: number, concurrency = 16, options: { maxHeaderSize?: number } = {}): Promise<FuzzRun> {
  const rand = prng(seed);
  const run: FuzzRun = {
    requests: 0,
    perTarget: new Map(),
    statuses: new Map(),
    failures: [],
    worstStallMs: 0,
    worstStall: NO_STALL,
    busiestStall: NO_STALL,
    slowest: { ms: 0, request: undefined },
    overHeaderLimit: 0,
  };
  const byPath = stack.targets.map((t) => ({ key: `${t.method} ${t.path}`, re: new RegExp(`^${t.path.replace(/\{[^}]+\}/g, '[^/?]*')}(\\?|$)`) }));
  // The fuzzer's own work (generating a chunk of requests, some with bodies of 20,000 items or URLs
  // of 840 KB, and checking the answers) runs between chunks, outside the stall measured: in one
  // event loop with the server it made the worst stalls of the run (node --cpu-prof).
  const CHUNK = 256;
  for (let first = 0; first < count; first += CHUNK) {
    const chunk: { index: number; request: FuzzRequest }[] = [];
    for (let i = first; i < Math.min(count, first + CHUNK); i++) {
      const request = buildRequest(rand, stack.targets, stack.vocab);
      if (options.maxHeaderSize !== undefined && headerBytes(request) > options.maxHeaderSize) {
        run.overHeaderLimit++;
        continue;
      }
      chunk.push({ index: i, request });
    }
    const answers: { index: number; request: FuzzRequest; response: FuzzResponse }[] = [];
    let at = 0;
    const next = async (): Promise<void> => {
      while (at < chunk.length) {
        const { index, request } = chunk[at++]!;
        // A turn of the event loop between requests, as network I/O gives a real server: the stall measured is then one request's.
        await new Promise<void>((resolve) => setImmediate(resolve));
        const started = performance.now();
        const id = watch.begin(request);
        const response = await stack.h.app.inject({ method: request.method as 'GET', url: request.url, headers: request.headers, ...(request.payload === undefined ? {} : { payload: request.payload }) });
        watch.end(id);
        const ms = performance.now() - started;
        if (ms > run.slowest.ms) run.slowest = { ms, request };
        answers.push({ index, request, response: { statusCode: response.statusCode, headers: response.headers, body: response.body } });
      }
    };
    // A fresh monitor per chunk: a re-enabled one would count the pause before it as a stall.
    const stalls = monitorEventLoopDelay({ resolution: 10 });
    const watch = new StallWatch<FuzzRequest>();
    stalls.enable();
    watch.start();
    await Promise.all(Array.from({ length: concurrency }, next));
    stalls.disable();
    const stall = watch.stop();
    run.worstStallMs = Math.max(run.worstStallMs, stalls.max / 1e6);
    if (stall.longest.ms > run.worstStall.ms) run.worstStall = stall.longest;
    if (stall.busiest.cpuMs > run.busiestStall.cpuMs) run.busiestStall = stall.busiest;
    for (const { index, request, response } of answers.sort((a, b) => a.index - b.index)) {
      run.requests++;
      const hit = byPath.find((t) => t.re.test(request.url));
      if (hit) run.perTarget.set(hit.key, (run.perTarget.get(hit.key) ?? 0) + 1);
      run.statuses.set(response.statusCode, (run.statuses.get(response.statusCode) ?? 0) + 1);
      const problems = violations(request, response, stack.codes, stack.secrets);
      if (problems.length > 0) run.failures.push({ index, request, status: response.statusCode, problems });
    }
  }
  return run;
}
