// Paradigm: subjects × tenses, positive and negative, through POST /batch-generate: each click sends one
// request of at most the key's batch size, so a table larger than that fills in over several clicks
// (one metered request per click, never a burst on the shared demo key); the table is exported as CSV.
import { call, curlFor, onQuota } from './api.js';
import { curlView } from './conjugate.js';
import { agreementLabel, byId, fill, h, problemView } from './dom.js';

/** One request may ask for at most this many forms, whatever the tier (docs/api.md). */
const HARD_CAP = 5000;
const PERSONS = ['1sg', '2sg', 'c1', '1pl', '2pl', 'c2'];

export function initParadigm(page) {
  const form = byId('paradigm-form');
  let rows = [];
  /** The table being filled: its plan (as a string) and the results so far, in cell order. */
  let progress = { plan: '', results: [] };
  const update = () => updateCost(page, progress);
  page.onLanguage((language) => {
    fillOptions(language);
    update();
  });
  page.onKey(update);
  onQuota(update);
  form.addEventListener('input', update);
  form.addEventListener('change', update);
  byId('p-csv').addEventListener('click', () => download(rows, page.state.language?.iso ?? 'lugha'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const language = page.state.language;
    if (!language) return;
    const plan = planOf(page);
    const out = byId('paradigm-result');
    if (plan.cells.length === 0) {
      fill(out, h('p', { role: 'alert' }, 'Choose at least one tense and one subject.'));
      return;
    }
    if (progress.plan !== planKey(language, plan) || progress.results.length >= plan.cells.length) progress = { plan: planKey(language, plan), results: [] };
    const done = progress.results.length;
    const chunk = plan.cells.slice(done, done + plan.batch);
    fill(out, h('p', { class: 'busy' }, `Generating forms ${done + 1}–${done + chunk.length} of ${plan.cells.length}…`));
    const body = { language: language.iso, items: chunk.map(({ tense, polarity, subject }) => ({ root: plan.root, tense, polarity, subject })) };
    const result = await call('/api/v1/batch-generate', { method: 'POST', body });
    if (!result.ok) {
      fill(out, problemView(result), curlView(curlFor('/api/v1/batch-generate', { method: 'POST', body })));
      update();
      return;
    }
    result.body.data.forEach((item, j) => progress.results.push({ ...chunk[j], item }));
    rows = progress.results.map(({ tense, polarity, subject, item }) => ({
      root: plan.root,
      tense,
      polarity,
      subject,
      form: item.ok ? item.result.surface_form : '',
      english: item.ok ? item.result.english : '',
      note: item.ok ? '' : item.error.message,
    }));
    const left = plan.cells.length - progress.results.length;
    fill(
      out,
      left > 0 ? h('p', { id: 'p-partial' }, `${progress.results.length} of ${plan.cells.length} forms so far: press the button again for the next ${Math.min(left, plan.batch)} (one request).`) : null,
      tableView(rows, plan, language),
      curlView(curlFor('/api/v1/batch-generate', { method: 'POST', body })),
    );
    byId('p-csv').disabled = false;
    update();
  });
}

/** Identifies a table: the same language, root and cells continue it; anything else starts a new one. */
function planKey(language, plan) {
  return JSON.stringify([language.iso, plan.root, plan.cells]);
}

function fillOptions(language) {
  if (!language) {
    fill(byId('p-tenses'));
    fill(byId('p-subjects'));
    return;
  }
  // Checked at first: the first three tenses of the indicative that have a negative, and the six persons.
  const first = language.tenses
    .filter((t) => t.mood === language.tenses[0]?.mood && t.negative)
    .slice(0, 3)
    .map((t) => t.id);
  fill(
    byId('p-tenses'),
    language.tenses.map((t) => h('label', { class: 'inline' }, h('input', { type: 'checkbox', name: 'tenses', value: t.id, checked: first.includes(t.id) }), ` ${t.id}`)),
  );
  const persons = language.subjects.filter((s) => PERSONS.includes(s));
  fill(
    byId('p-subjects'),
    language.subjects.map((id) => h('label', { class: 'inline' }, h('input', { type: 'checkbox', name: 'subjects', value: id, checked: persons.includes(id) }), ` ${agreementLabel(id)}`)),
  );
}

/** The cells to generate (negative only for tenses that have one) and the batch size to send them in. */
function planOf(page) {
  const language = page.state.language;
  const data = new FormData(byId('paradigm-form'));
  const tenses = language ? language.tenses.filter((t) => data.getAll('tenses').includes(t.id)) : [];
  const subjects = data.getAll('subjects').map(String);
  const cells = [];
  for (const t of tenses) {
    for (const polarity of t.negative ? ['positive', 'negative'] : ['positive']) {
      for (const subject of subjects) cells.push({ tense: t.id, polarity, subject });
    }
  }
  const batch = Math.min(page.state.me?.limits.batch_size ?? HARD_CAP, HARD_CAP);
  return { root: String(data.get('root') ?? '').trim(), tenses, subjects, cells, batch, requests: Math.ceil(cells.length / batch) };
}

function updateCost(page, progress) {
  const button = byId('paradigm-form').querySelector('button[type="submit"]');
  if (!page.state.me || !page.state.language) {
    fill(byId('p-cost'));
    return;
  }
  const plan = planOf(page);
  const continuing = progress.plan === planKey(page.state.language, plan) && progress.results.length < plan.cells.length;
  const done = continuing ? progress.results.length : 0;
  const next = Math.min(plan.batch, plan.cells.length - done);
  const left = page.state.quota?.remaining;
  const spent = left !== null && left !== undefined && left < 1;
  button.disabled = spent || plan.cells.length === 0;
  button.textContent = continuing ? `Next ${next} forms` : 'Make the table';
  fill(
    byId('p-cost'),
    `${plan.cells.length} forms: ${plan.requests} request${plan.requests === 1 ? '' : 's'} of at most ${plan.batch} forms (your tier's batch size), one per click` +
      (left === null || left === undefined ? '.' : `; ${left} requests left today.`) +
      (spent ? ' No requests left today.' : ''),
  );
}

function tableView(rows, plan, language) {
  const cell = new Map(rows.map((r) => [`${r.tense}|${r.polarity}|${r.subject}`, r]));
  return h(
    'div',
    { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-labelledby': 'p-caption' },
    h(
      'table',
      { class: 'paradigm', id: 'paradigm-table' },
      h('caption', { id: 'p-caption' }, `Paradigm of ${plan.root} in ${language.name}`),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('td', { rowspan: '2' }),
          plan.tenses.map((t) => h('th', { scope: 'colgroup', colspan: t.negative ? '2' : '1' }, t.id)),
        ),
        h(
          'tr',
          {},
          plan.tenses.flatMap((t) => (t.negative ? ['positive', 'negative'] : ['positive']).map((p) => h('th', { scope: 'col' }, p))),
        ),
      ),
      h(
        'tbody',
        {},
        plan.subjects.map((subject) =>
          h(
            'tr',
            {},
            h('th', { scope: 'row' }, agreementLabel(subject)),
            plan.tenses.flatMap((t) =>
              (t.negative ? ['positive', 'negative'] : ['positive']).map((p) => {
                const r = cell.get(`${t.id}|${p}|${subject}`);
                if (!r || !r.form) return h('td', { class: 'empty', title: r?.note ?? '' }, h('span', { 'aria-label': r?.note || 'no form' }, '—'));
                return h('td', { lang: language.iso, title: r.english }, r.form);
              }),
            ),
          ),
        ),
      ),
    ),
  );
}

function csvField(value) {
  const text = String(value ?? '');
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The rows as RFC 4180 CSV, one form per line. */
export function toCsv(rows) {
  const header = ['root', 'tense', 'polarity', 'subject', 'form', 'english', 'note'];
  return [header, ...rows.map((r) => header.map((k) => r[k]))].map((line) => line.map(csvField).join(',')).join('\r\n') + '\r\n';
}

function download(rows, iso) {
  if (!rows.length) return;
  const url = URL.createObjectURL(new Blob([toCsv(rows)], { type: 'text/csv;charset=utf-8' }));
  const a = h('a', { href: url, download: `paradigm-${iso}-${rows[0].root}.csv` });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
