// Conjugate: the form's options come from GET /languages; the answer of GET /conjugate is shown
// slot by slot, with its tonal analysis when the language has one, the gloss and the curl command.
import { call, curlFor } from './api.js';
import { agreementLabel, byId, fill, h, problemView } from './dom.js';

/** Slot names as the API gives them, with a reader's label. */
const SLOT_LABELS = {
  pre_initial: 'pre-initial',
  subject: 'subject',
  negation: 'negation',
  tam: 'tense/aspect',
  relative: 'relative',
  object: 'object',
  stem_support: 'stem support',
  root: 'root',
  extensions: 'extension',
  fv: 'final vowel',
  post_final: 'post-final',
};

export function initConjugate(page) {
  const form = byId('conjugate-form');
  const tense = byId('c-tense');
  page.onLanguage((language) => fillOptions(language));
  tense.addEventListener('change', () => syncPolarity(page.state.language));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const language = page.state.language;
    if (!language) return;
    const data = new FormData(form);
    const params = new URLSearchParams({ language: language.iso, root: String(data.get('root')).trim() });
    for (const name of ['subject', 'tense', 'polarity', 'object']) {
      const value = String(data.get(name) ?? '');
      if (value) params.set(name, value);
    }
    const extensions = data.getAll('extensions').map(String);
    if (extensions.length) params.set('extensions', extensions.join(','));
    params.set('include_tones', 'true');
    const path = `/api/v1/conjugate?${params}`;
    const out = byId('conjugate-result');
    fill(out, h('p', { class: 'busy' }, 'Conjugating…'));
    const result = await call(path);
    fill(out, result.ok ? resultView(result.body.data[0]) : problemView(result), curlView(curlFor(path)));
  });
}

function fillOptions(language) {
  const subject = byId('c-subject');
  const object = byId('c-object');
  const tense = byId('c-tense');
  const extensions = byId('c-extensions');
  if (!language) {
    for (const el of [subject, object, tense]) fill(el);
    fill(extensions);
    return;
  }
  fill(
    subject,
    language.subjects.map((id) => h('option', { value: id }, agreementLabel(id))),
    h('option', { value: '' }, '(none: infinitive)'),
  );
  fill(
    object,
    h('option', { value: '' }, '(none)'),
    language.subjects.map((id) => h('option', { value: id }, agreementLabel(id))),
  );
  const moods = [...new Set(language.tenses.map((t) => t.mood))];
  fill(
    tense,
    moods.map((mood) =>
      h(
        'optgroup',
        { label: mood },
        language.tenses.filter((t) => t.mood === mood).map((t) => h('option', { value: t.id }, t.label === t.id ? t.id : `${t.label} (${t.id})`)),
      ),
    ),
  );
  const ids = language.extensions ?? [];
  byId('c-extensions-field').hidden = ids.length === 0;
  fill(
    extensions,
    ids.map((id) => h('label', { class: 'inline' }, h('input', { type: 'checkbox', name: 'extensions', value: id }), ` ${id}`)),
  );
  syncPolarity(language);
}

/** Disables "negative" for a tense without a negative form. */
function syncPolarity(language) {
  const tense = language?.tenses.find((t) => t.id === byId('c-tense').value);
  const negative = byId('c-negative');
  negative.disabled = tense ? !tense.negative : false;
  if (negative.disabled && negative.checked) document.querySelector('input[name="polarity"][value="positive"]').checked = true;
}

/** The answer: surface form, gloss, each word's slots, tone and rules. */
export function resultView(result) {
  const tone = toneView(result.tonal_analysis);
  return h(
    'div',
    { class: 'result' },
    h('p', { class: 'surface', lang: result.language, id: 'c-surface' }, result.surface_form),
    tone.marked ? h('p', { class: 'tone-marked', lang: result.language }, h('span', { class: 'visually-hidden' }, 'with tone marks: '), tone.marked) : null,
    h('p', { class: 'gloss', id: 'c-gloss' }, `“${result.english}”`),
    result.words.map((word) => slotsView(word, result.language)),
    h(
      'p',
      { class: 'help' },
      `Lemma ${result.lemma}, root ${result.root}${result.in_lexicon ? '' : ' (not in the lexicon: regular pattern)'}.`,
      result.rules_applied.length ? ` Rules applied: ${result.rules_applied.join(', ')}.` : '',
    ),
    tone.view,
  );
}

/** One word as coloured, labelled morphs in template order. */
export function slotsView(word, language) {
  return h(
    'ol',
    { class: 'slots', 'aria-label': `Morphs of ${word.surface}` },
    Object.entries(word.slots).map(([slot, morph]) =>
      h(
        'li',
        { class: `slot slot-${slot}` },
        h('span', { class: 'morph', lang: language }, morph.form || '∅'),
        h('span', { class: 'slot-name' }, SLOT_LABELS[slot] ?? slot.replaceAll('_', ' ')),
        morph.id ? h('span', { class: 'slot-id' }, morph.id) : null,
      ),
    ),
  );
}

/**
 * The tonal analysis as the API gives it: its status and note always; when tones were computed, the
 * tone-marked transcription, each word's tone-bearing units (underlying and surface tone, the morph and
 * what brought the tone, the rules that changed it) and the rules applied with their sources.
 * Members this page does not know are shown as they come.
 */
function toneView(tonal) {
  if (!tonal) return { view: null };
  const known = new Set(['status', 'note', 'unit', 'transcription', 'transcription_high', 'words']);
  const words = Array.isArray(tonal.words) ? tonal.words : [];
  return {
    marked: typeof tonal.transcription === 'string' ? tonal.transcription : undefined,
    view: h(
      'div',
      { class: 'tone', id: 'c-tone' },
      h('h3', {}, 'Tone'),
      h('p', {}, h('code', {}, tonal.status), ` ${tonal.note}`),
      tonal.transcription_high ? h('p', {}, 'High tones only: ', h('span', { class: 'tone-high', lang: 'und' }, tonal.transcription_high)) : null,
      words.map((word) =>
        h(
          'div',
          { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': `Tones of ${word.surface}` },
          h(
            'table',
            { class: 'tone-table' },
            h('caption', {}, `${word.transcription ?? word.surface}: tone per ${tonal.unit ?? 'unit'}`),
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                ['', 'morph', 'underlying', 'from', 'surface', 'rules'].map((c, i) => h(i === 0 ? 'td' : 'th', i === 0 ? {} : { scope: 'col' }, c)),
              ),
            ),
            h(
              'tbody',
              {},
              (word.units ?? []).map((u) =>
                h(
                  'tr',
                  {},
                  h('th', { scope: 'row' }, u.text),
                  h('td', {}, `${u.morph} ${u.morph_form ?? ''}`.trim()),
                  h('td', {}, u.underlying),
                  h('td', {}, u.underlying_from ?? '—'),
                  h('td', { class: u.surface === 'H' ? 'tone-h' : 'tone-l' }, `${u.surface}${u.downstep ? ' (downstepped)' : ''}`),
                  h('td', {}, (u.rules ?? []).join(', ') || '—'),
                ),
              ),
            ),
          ),
          (word.rules_applied ?? []).length
            ? h(
                'ol',
                { class: 'tone-rules' },
                word.rules_applied.map((r) => h('li', {}, h('code', {}, r.id), ` ${r.description}`, r.source ? ` (${r.source})` : '')),
              )
            : null,
        ),
      ),
      Object.entries(tonal)
        .filter(([k]) => !known.has(k))
        .map(([k, v]) => h('p', {}, h('strong', {}, `${k.replaceAll('_', ' ')}: `), display(v))),
    ),
  };
}

function display(value) {
  if (value === null || value === undefined) return '—';
  if (Array.isArray(value)) return value.map((v) => (typeof v === 'object' ? JSON.stringify(v) : String(v))).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** The curl command for the same call, with a copy button. */
export function curlView(command) {
  const status = h('span', { class: 'help', 'aria-live': 'polite' });
  const code = h('code', { class: 'curl' }, command);
  return h(
    'div',
    { class: 'curl-box' },
    h('p', { class: 'help' }, 'The same call from a shell (set LUGHA_API_KEY to your key):'),
    h('pre', { tabindex: '0', 'aria-label': 'curl command' }, code),
    h(
      'button',
      {
        type: 'button',
        class: 'secondary',
        onclick: async () => {
          try {
            await navigator.clipboard.writeText(command);
            fill(status, 'Copied.');
          } catch {
            const range = document.createRange();
            range.selectNodeContents(code);
            getSelection()?.removeAllRanges();
            getSelection()?.addRange(range);
            fill(status, 'Selected: press Ctrl+C to copy.');
          }
        },
      },
      'Copy curl command',
    ),
    ' ',
    status,
  );
}
