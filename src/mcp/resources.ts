/**
 * MCP resources: what a model or a user may read into context without calling
 * a tool. Four templates, each listed (resources/list) and completable:
 *
 * - `lugha://languages/{language}/grammar`: a cartridge's grammar summary (Markdown):
 *   codes, tenses, subjects, extensions, noun classes with their concords, lexicon size,
 *   golden-test coverage and sources. Descriptive facts only: no generated forms.
 * - `lugha://audio/{language}/consent-manifest` (JSON) and `lugha://audio/{language}/dataset-card`
 *   (Markdown): the public, non-PII consent provenance and dataset card of a language with
 *   audio, as the public audio routes serve them.
 * - `lugha://docs/{name}`: the user documentation written for API and MCP clients.
 *
 * Every resource is read-only and free of speaker ids, storage paths, buckets and URLs
 * inside the service, so any key that may use MCP (Academic and up) reads all of them.
 * Each resources/read of an existing resource re-checks the key and counts one request
 * against its daily quota (a URI that names nothing is refused before counting).
 *
 * Where resources change: withdrawing consent changes a language's consent manifest and
 * dataset card. A server built with `watch` (the long-lived stdio connection) re-reads them
 * every `intervalMs` and sends `notifications/resources/updated` for those that changed:
 * to 2025-11-25 clients for the URIs they subscribed to (resources/subscribe), to
 * 2026-07-28 clients through their `subscriptions/listen` stream.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { McpServer, ProtocolError, ProtocolErrorCode, ResourceNotFoundError, ResourceTemplate } from '@modelcontextprotocol/server';
import { stringify } from 'yaml';
import type { Principal } from '../access/key-service.js';
import { packageRoot } from '../config.js';
import type { Services } from '../services.js';
import { mcpRefusal } from './access.js';
import { completers } from './completions.js';
import type { Authorization } from './server.js';
import { getCartridgeInfo } from './tools/get-cartridge-info.js';
import { getLanguageInfo } from './tools/get-language-info.js';
import { getNounClasses } from './tools/get-noun-classes.js';

/** The documents served as `lugha://docs/{name}`: those written for clients (operations and deployment notes are not). */
export const servedDocs: Readonly<Record<string, string>> = {
  api: 'The REST API: routes, parameters, envelopes, errors, quotas',
  mcp: 'The MCP server: tools, resources, prompts, completions, tiers and quota',
  errors: 'The error catalogue: every code, its HTTP status and what to do',
  cartridges: 'The language cartridge format and what each installed cartridge covers',
  'text-analysis': 'Running-text analysis: tokenisation, readings, probabilities, evaluation',
  hfst: 'HFST transducers: models, tags, analysis and generation',
  audio: 'The numeral audio API: listings, clips, consent, dataset cards',
  'status-api': 'The product status API',
};

export interface ResourceOptions {
  services: Services;
  /** Re-checks the caller for each read (a key may be revoked mid-session). */
  authorize: () => Promise<Authorization>;
  /** Long-lived connections only: re-read the resources that change every `intervalMs` and notify. */
  watch?: { intervalMs: number };
}

/** Registers Lugha's resource templates (and, with `watch`, subscriptions) on `server`. */
export function registerResources(server: McpServer, options: ResourceOptions): void {
  const { services } = options;
  const complete = completers(() => services.morphology);
  const audioLanguages = async () => (await services.audio.coverage()).map((c) => c.language);

  /** Key, tier and quota for one read; a refusal is a JSON-RPC error whose message starts with the catalogue code. */
  const admit = async (): Promise<Principal> => {
    const auth = await options.authorize();
    if (!auth.ok) throw new ProtocolError(ProtocolErrorCode.InvalidRequest, `${auth.code}: ${auth.message}; set a valid key and reconnect`);
    const refusal = mcpRefusal(auth.principal);
    if (refusal) throw new ProtocolError(ProtocolErrorCode.InvalidRequest, `${refusal.code}: ${refusal.message}`);
    const reading = await services.meter.consume(auth.principal);
    if (!reading.allowed) {
      throw new ProtocolError(ProtocolErrorCode.InvalidRequest, `quota_exceeded: this key's ${reading.limit} requests for today are spent; the count resets at 00:00 UTC, in ${reading.resetSeconds} s`);
    }
    return auth.principal;
  };
  const one = (value: string | string[]) => (Array.isArray(value) ? (value[0] ?? '') : value);

  server.registerResource(
    'grammar',
    new ResourceTemplate('lugha://languages/{language}/grammar', {
      list: () => ({
        resources: services.morphology.languages().map((l) => ({
          uri: `lugha://languages/${l.iso}/grammar`,
          name: `${l.iso}-grammar`,
          title: `${l.name} grammar summary`,
          description: `What Lugha's ${l.name} cartridge knows: tenses, subjects, noun classes and concords, lexicon, sources.`,
          mimeType: 'text/markdown',
        })),
      }),
      complete: { language: complete.language },
    }),
    {
      title: 'Grammar summary of a language cartridge',
      description:
        "A language's grammar as Lugha's cartridge encodes it (Markdown): codes, capabilities, tense ids with labels and moods, subject ids, verb extensions, " +
        'noun classes with prefixes and concords, lexicon size, golden-test coverage and the full citation of every source. Example: lugha://languages/swh/grammar.',
      mimeType: 'text/markdown',
    },
    async (uri, variables) => {
      const language = one(variables.language!);
      if (!services.morphology.engine(language).ok) throw new ResourceNotFoundError(uri.href, `no installed language "${language}"; resources/list gives the installed ones`);
      const principal = await admit();
      const text = await grammarSummary(services, principal, language);
      if (text === undefined) throw new ResourceNotFoundError(uri.href, `no installed language "${language}"; resources/list gives the installed ones`);
      return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text }] };
    },
  );

  const audioLanguage = async (code: string): Promise<string | undefined> => {
    const iso = services.audio.language(code);
    return iso.ok ? iso.value : undefined;
  };

  /** One audio document per language with audio (`lugha://audio/{language}/<kind>`), listed, completed and read alike. */
  const audioDocument = (kind: string, doc: { label: string; title: string; description: string; mimeType: string; read: (iso: string) => Promise<string> }) =>
    server.registerResource(
      kind,
      new ResourceTemplate(`lugha://audio/{language}/${kind}`, {
        list: async () => ({
          resources: (await audioLanguages()).map((iso) => ({ uri: `lugha://audio/${iso}/${kind}`, name: `${iso}-${kind}`, title: `${doc.label}: ${iso}`, mimeType: doc.mimeType })),
        }),
        complete: { language: async (value) => (await audioLanguages()).filter((iso) => iso.startsWith(value.toLowerCase())) },
      }),
      { title: doc.title, description: doc.description, mimeType: doc.mimeType },
      async (uri, variables) => {
        const iso = await audioLanguage(one(variables.language!));
        if (!iso) throw new ResourceNotFoundError(uri.href, `"${one(variables.language!)}" is not a known Bantu language code`);
        await admit();
        return { contents: [{ uri: uri.href, mimeType: doc.mimeType, text: await doc.read(iso) }] };
      },
    );

  audioDocument('consent-manifest', {
    label: 'Consent manifest',
    title: 'Consent manifest of a language with audio',
    description:
      "Non-PII consent provenance of a language's recordings (JSON): consent form versions, scopes, jurisdictions, dates, status, speaker and clip counts, " +
      'the withdrawal policy. Changes when consent is withdrawn (subscribable). Example: lugha://audio/swh/consent-manifest.',
    mimeType: 'application/json',
    read: async (iso) => JSON.stringify(await services.audio.consentManifest(iso), null, 2),
  });

  audioDocument('dataset-card', {
    label: 'Dataset card',
    title: 'Dataset card of a language with audio',
    description:
      "The Hugging Face dataset card of a language's numeral recordings (Markdown with YAML front matter): live counts, provenance and consent, access. " +
      'Changes when consent is withdrawn (subscribable). Example: lugha://audio/swh/dataset-card.',
    mimeType: 'text/markdown',
    read: (iso) => datasetCardText(services, iso),
  });

  server.registerResource(
    'docs',
    new ResourceTemplate('lugha://docs/{name}', {
      list: () => ({
        resources: Object.entries(servedDocs).map(([name, description]) => ({
          uri: `lugha://docs/${name}`,
          name: `docs-${name}`,
          title: `Lugha documentation: ${name}`,
          description,
          mimeType: 'text/markdown',
        })),
      }),
      complete: { name: (value) => Object.keys(servedDocs).filter((n) => n.startsWith(value.toLowerCase())) },
    }),
    {
      title: 'Lugha documentation',
      description: `Lugha's user documentation (Markdown). Names: ${Object.keys(servedDocs).join(', ')}. Example: lugha://docs/mcp.`,
      mimeType: 'text/markdown',
    },
    async (uri, variables) => {
      const name = one(variables.name!);
      if (!Object.hasOwn(servedDocs, name)) throw new ResourceNotFoundError(uri.href, `no document "${name}"; the documents are ${Object.keys(servedDocs).join(', ')}`);
      await admit();
      return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: readDoc(name) }] };
    },
  );

  if (options.watch) watchAudioResources(server, services, options.watch.intervalMs, audioLanguages);
}

const docCache = new Map<string, string>();
function readDoc(name: string): string {
  let text = docCache.get(name);
  if (text === undefined) {
    text = readFileSync(path.join(packageRoot, 'docs', `${name}.md`), 'utf8');
    docCache.set(name, text);
  }
  return text;
}

async function datasetCardText(services: Services, iso: string): Promise<string> {
  const card = await services.audio.datasetCard(iso);
  return `---\n${stringify(card.metadata)}---\n\n${card.prose}\n`;
}

/** A cartridge's grammar summary in Markdown, or undefined for a language that is not installed. */
export async function grammarSummary(services: Services, principal: Principal, language: string): Promise<string | undefined> {
  const context = { services, principal };
  const info = await getLanguageInfo.handler({ language }, context);
  if (!info.ok) return undefined;
  const l = info.value;
  const contents = await getCartridgeInfo.handler({ language }, context);
  const nouns = await getNounClasses.handler({ language }, context);
  const lines = [
    `# ${l.name} (${l.iso})`,
    '',
    `- Codes: ISO 639-3 \`${l.iso}\`${l.iso639_1 ? `, ISO 639-1 \`${l.iso639_1}\`` : ''}${l.glottocode ? `, Glottocode \`${l.glottocode}\`` : ''}${l.guthrie ? `, Guthrie ${l.guthrie}` : ''}`,
    ...(l.endonym ? [`- Endonym: ${l.endonym}`] : []),
    `- Capabilities: ${l.capabilities.join(', ') || 'none yet'}`,
    `- Lexicon: ${l.lexicon_size} entries${
      contents.ok
        ? ` (${Object.entries(contents.value.counts.lexicon)
            .map(([k, v]) => `${k} ${v}`)
            .join(', ')})`
        : ''
    }`,
    `- Golden tests: ${l.golden_tests.passing}/${l.golden_tests.total} pass`,
    '',
  ];
  if (l.tenses.length) {
    lines.push('## Tenses', '', 'Use the id as `tense` (conjugate_verb, get_paradigm, prompts).', '', '| id | label | mood | negative |', '|---|---|---|---|');
    for (const t of l.tenses) lines.push(`| \`${t.id}\` | ${t.label} | ${t.mood} | ${t.negative ? 'yes' : 'no'} |`);
    lines.push('');
  }
  if (l.subjects.length) lines.push('## Subjects and objects', '', `Agreement ids: ${l.subjects.map((s) => `\`${s}\``).join(', ')}.`, '');
  if (l.extensions.length) lines.push('## Verb extensions', '', l.extensions.map((e) => `\`${e}\``).join(', '), '');
  if (nouns.ok) {
    const concordNames = [...new Set(nouns.value.classes.flatMap((c) => Object.keys(c.concords)))];
    lines.push('## Noun classes', '', `| id | class | number | noun prefix | ${concordNames.join(' | ')} |`, `|---|---|---|---|${concordNames.map(() => '---|').join('')}`);
    for (const c of nouns.value.classes) lines.push(`| \`${c.id}\` | ${c.class} | ${c.number} | ${c.noun_prefix ?? '—'} | ${concordNames.map((n) => c.concords[n] ?? '—').join(' | ')} |`);
    lines.push('');
  }
  if (l.word_classes.length) lines.push('## Word classes', '', l.word_classes.join(', '), '');
  lines.push('## Sources', '');
  const sources = contents.ok ? contents.value.sources : l.sources.map((s) => ({ ...s, licence: null }));
  for (const s of sources) lines.push(`- \`${s.id}\`: ${s.citation}${s.licence ? ` (licence: ${s.licence})` : ''}`);
  return `${lines.join('\n')}\n`;
}

/**
 * Re-reads every language's consent manifest and dataset card each `intervalMs` and sends
 * `notifications/resources/updated` for those that changed (2025 era: only subscribed URIs).
 */
function watchAudioResources(server: McpServer, services: Services, intervalMs: number, audioLanguages: () => Promise<string[]>): void {
  const subscribed = new Set<string>();
  const fingerprints = new Map<string, string>();
  const low = server.server;
  low.registerCapabilities({ resources: { subscribe: true, listChanged: false } });
  const watchable = (uri: string) => /^lugha:\/\/audio\/[a-z]{2,3}\/(consent-manifest|dataset-card)$/.test(uri);
  low.setRequestHandler('resources/subscribe', async (request) => {
    const uri = request.params.uri;
    if (!watchable(uri)) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `only consent manifests and dataset cards change while the service runs (lugha://audio/{language}/consent-manifest, …/dataset-card); ${JSON.stringify(uri.slice(0, 200))} does not`,
      );
    }
    subscribed.add(uri);
    return {};
  });
  low.setRequestHandler('resources/unsubscribe', async (request) => {
    subscribed.delete(request.params.uri);
    return {};
  });

  const fingerprint = (text: string) => createHash('sha256').update(text).digest('base64url');
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      for (const iso of await audioLanguages()) {
        const current: Array<[string, string]> = [
          [`lugha://audio/${iso}/consent-manifest`, fingerprint(JSON.stringify(await services.audio.consentManifest(iso)))],
          [`lugha://audio/${iso}/dataset-card`, fingerprint(await datasetCardText(services, iso))],
        ];
        for (const [uri, print] of current) {
          const before = fingerprints.get(uri);
          fingerprints.set(uri, print);
          if (before === undefined || before === print) continue;
          // A 2026-07-28 client filters on its listen stream; a 2025 client asked per URI.
          const modern = (low.getNegotiatedProtocolVersion() ?? '') >= '2026';
          if ((modern || subscribed.has(uri)) && low.transport) await low.sendResourceUpdated({ uri }).catch(() => undefined);
        }
      }
    } catch {
      // A store that does not answer now is read again on the next tick.
    } finally {
      running = false;
    }
  };
  void tick();
  const timer = setInterval(() => void tick(), intervalMs);
  timer.unref();
  const previous = low.onclose;
  low.onclose = () => {
    clearInterval(timer);
    previous?.();
  };
}
