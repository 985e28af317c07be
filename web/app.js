// The try-it page: finds a key (pasted, or the demo Evaluation key on a --demo install), shows the
// key's tier, offer and quota, loads the languages from the API and starts each tool.
import { call, currentKey, onQuota, service, setKey } from './api.js';
import { initAnalyse } from './analyse.js';
import { initAudio } from './audio.js';
import { initConjugate } from './conjugate.js';
import { initCoverage } from './coverage.js';
import { byId, fill, h, problemView } from './dom.js';
import { initParadigm } from './paradigm.js';

const state = {
  /** GET /api/v1/me for the current key, or undefined. */
  me: undefined,
  /** GET /api/v1/languages, in API order. */
  languages: [],
  /** The language chosen in the language bar. */
  language: undefined,
  quota: undefined,
};
const languageListeners = [];
const keyListeners = [];

/** What every tool shares: the state and ways to follow changes. */
export const page = {
  state,
  onLanguage(listener) {
    languageListeners.push(listener);
  },
  onKey(listener) {
    keyListeners.push(listener);
  },
  /** Chooses a language in the language bar, as if the visitor had. */
  selectLanguage(iso) {
    if (state.languages.some((l) => l.iso === iso)) selectLanguage(iso);
  },
};

async function start() {
  byId('key-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const input = byId('key-input');
    if (!input.value.trim()) return;
    setKey(input.value);
    input.value = '';
    await useKey();
  });
  byId('forget-key').addEventListener('click', async () => {
    setKey('');
    await useKey();
  });
  const settings = await call('/web/config.json', { auth: false });
  if (settings.ok) service.audioBase = settings.body.audio_base;
  const demo = settings.ok && settings.body.demo_key ? await call('/web/demo-key', { auth: false }) : { ok: false };
  if (demo.ok) {
    const button = byId('demo-key');
    button.hidden = false;
    button.addEventListener('click', async () => {
      setKey(demo.body.key);
      await useKey();
    });
    if (!currentKey()) setKey(demo.body.key);
  }
  onQuota((quota) => {
    state.quota = quota;
    renderKeyStatus();
  });
  byId('language').addEventListener('change', () => selectLanguage(byId('language').value));
  initConjugate(page);
  initAnalyse(page);
  initParadigm(page);
  initCoverage(page);
  initAudio(page);
  await useKey();
}

/** Looks the key up (GET /api/v1/me, not metered) and reloads what depends on it. */
async function useKey() {
  state.me = undefined;
  state.quota = undefined;
  byId('forget-key').hidden = !currentKey();
  if (!currentKey()) {
    fill(byId('key-status'), h('p', {}, 'No key yet: paste one to try the API.'));
    setLanguages([]);
    for (const listener of keyListeners) listener();
    return;
  }
  const me = await call('/api/v1/me');
  if (!me.ok) {
    fill(byId('key-status'), h('p', {}, 'This key does not work:'), problemView(me));
    setLanguages([]);
    for (const listener of keyListeners) listener();
    return;
  }
  state.me = me.body.data[0];
  state.quota = { remaining: state.me.quota.remaining, limit: state.me.quota.limit, resetSeconds: state.me.quota.reset_seconds };
  renderKeyStatus();
  const languages = await installedLanguages();
  if (!languages.ok) {
    fill(byId('language-info'), problemView(languages));
    setLanguages([]);
  } else {
    setLanguages(languages.cartridges);
  }
  for (const listener of keyListeners) listener();
}

/**
 * Every language with a cartridge: GET /languages?has_cartridge=true, one metered request while there
 * are at most 200 cartridges (the catalogue's languages without one are not asked for). Fetched once per
 * key, so loading the page costs the shared demo key one request and each action after it one more.
 */
async function installedLanguages() {
  const cartridges = [];
  for (let page = 1; ; page++) {
    const result = await call(`/api/v1/languages?has_cartridge=true&per_page=200&page=${page}`);
    if (!result.ok) return result;
    cartridges.push(...result.body.data);
    if (page >= result.body.meta.pages) return { ok: true, cartridges };
  }
}

function renderKeyStatus() {
  const me = state.me;
  if (!me) return;
  const quota = state.quota;
  const left = quota?.remaining === null || quota?.remaining === undefined ? 'unlimited' : `${quota.remaining} of ${quota.limit ?? me.limits.requests_per_day}`;
  fill(
    byId('key-status'),
    h(
      'dl',
      { class: 'key-facts' },
      h('div', {}, h('dt', {}, 'Tier'), h('dd', { id: 'key-tier' }, me.tier)),
      h('div', {}, h('dt', {}, 'Offer'), h('dd', { id: 'key-offer' }, me.offer)),
      h('div', {}, h('dt', {}, 'Requests left today'), h('dd', { id: 'key-quota' }, left)),
      h('div', {}, h('dt', {}, 'Batch size'), h('dd', {}, me.limits.batch_size === null ? 'unlimited' : String(me.limits.batch_size))),
      h('div', {}, h('dt', {}, 'Audio'), h('dd', { id: 'key-audio' }, me.languages ? me.languages.join(', ') : me.audio_languages === 'all' ? 'every language' : `${me.audio_languages} languages`)),
    ),
    me.expires_at ? h('p', { class: 'help' }, `Expires ${me.expires_at.slice(0, 10)}.`) : null,
  );
}

function setLanguages(languages) {
  state.languages = languages;
  const select = byId('language');
  const previous = state.language?.iso ?? select.value;
  const usable = languages.filter((l) => l.capabilities.includes('conjugation'));
  fill(
    select,
    usable.map((l) => h('option', { value: l.iso }, `${l.name} (${l.iso})`)),
  );
  select.disabled = usable.length === 0;
  if (usable.length === 0) {
    fill(select, h('option', {}, 'No languages'));
    state.language = undefined;
    fill(byId('language-info'));
    for (const listener of languageListeners) listener(undefined);
    return;
  }
  // A foundational language first: those are the ones with audio and the fullest cartridges.
  const fallback = usable.find((l) => l.foundational) ?? usable[0];
  selectLanguage(usable.some((l) => l.iso === previous) ? previous : fallback.iso);
}

function selectLanguage(iso) {
  const language = state.languages.find((l) => l.iso === iso);
  state.language = language;
  byId('language').value = iso;
  if (language) {
    fill(
      byId('language-info'),
      `${language.endonym ? `${language.endonym}, ` : ''}${language.guthrie ? `Guthrie ${language.guthrie}, ` : ''}${language.tenses.length} tenses, ` +
        `${language.lexicon_size} roots in the lexicon, golden tests ${language.golden_tests.passing}/${language.golden_tests.total}.`,
    );
  }
  for (const listener of languageListeners) listener(language);
}

start().catch((error) => {
  fill(byId('key-status'), h('p', { role: 'alert' }, `The page failed to start: ${error.message}`));
  throw error;
});
