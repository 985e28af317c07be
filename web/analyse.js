// Analyse: every analysis of a form (GET /analyze), most plausible first, each with its morphs.
import { call, curlFor } from './api.js';
import { curlView, slotsView } from './conjugate.js';
import { byId, fill, h, problemView } from './dom.js';

export function initAnalyse(page) {
  const form = byId('analyse-form');
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const params = new URLSearchParams({ form: String(data.get('form')).trim(), per_page: '10' });
    if (!data.get('any') && page.state.language) params.set('language', page.state.language.iso);
    const path = `/api/v1/analyze?${params}`;
    const out = byId('analyse-result');
    fill(out, h('p', { class: 'busy' }, 'Analysing…'));
    const result = await call(path);
    if (!result.ok) {
      fill(out, problemView(result), curlView(curlFor(path)));
      return;
    }
    const { data: analyses, meta } = result.body;
    const names = new Map(page.state.languages.map((l) => [l.iso, l.name]));
    fill(
      out,
      analyses.length === 0
        ? h('p', { id: 'a-none' }, 'No analysis: the engine finds no way to build this form.')
        : h('p', {}, `${meta.total} analys${meta.total === 1 ? 'is' : 'es'}, most plausible first${meta.total > analyses.length ? ` (first ${analyses.length} shown)` : ''}:`),
      h(
        'ol',
        { class: 'analyses' },
        analyses.map((a) =>
          h(
            'li',
            { class: 'analysis' },
            h('p', {}, h('strong', { lang: a.language }, a.lemma), ` (${names.get(a.language) ?? a.language})`, a.gloss ? ` “${a.gloss}”` : '', a.in_lexicon ? '' : ' · root not in the lexicon'),
            a.english ? h('p', { class: 'gloss' }, `“${a.english}”`) : null,
            h(
              'p',
              { class: 'features' },
              Object.entries(a.features).map(([k, v]) => h('span', { class: 'feature' }, `${k.replaceAll('_', ' ')}: ${v}`)),
            ),
            a.words.map((w) => slotsView(w, a.language)),
            a.features.word_class === 'verb' ? h('button', { type: 'button', class: 'secondary', onclick: () => conjugateThis(page, a) }, `Conjugate ${a.lemma}`) : null,
          ),
        ),
      ),
      curlView(curlFor(path)),
    );
  });
}

/** Fills the conjugation form with an analysis (language, root and the features the form offers) and moves there. */
function conjugateThis(page, analysis) {
  page.selectLanguage(analysis.language);
  byId('c-root').value = analysis.lemma;
  const f = analysis.features;
  const choose = (id, value) => {
    const select = byId(id);
    if (value !== undefined && [...select.options].some((o) => o.value === value)) select.value = value;
  };
  choose('c-tense', f.tense);
  byId('c-tense').dispatchEvent(new Event('change'));
  choose('c-subject', f.subject ?? '');
  choose('c-object', f.object ?? '');
  const polarity = document.querySelector(`input[name="polarity"][value="${f.polarity === 'negative' ? 'negative' : 'positive'}"]`);
  if (polarity && !polarity.disabled) polarity.checked = true;
  byId('conjugate').scrollIntoView();
  byId('c-root').focus();
}
