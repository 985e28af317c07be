// Paradigm: subjects × tenses, positive and negative, through POST /batch-generate in batches the
// key's tier allows (one request each), with the table exported as CSV.
import { call, curlFor, onQuota } from './api.js';
import { curlView } from './conjugate.js';
import { agreementLabel, byId, fill, h, problemView } from './dom.js';

/** One request may ask for at most this many forms, whatever the tier (docs/api.md). */
const HARD_CAP = 5000;
const PERSONS = ['1sg', '2sg', 'c1', '1pl', '2pl', 'c2'];

export function initParadigm(page) {
  const form = byId('paradigm-form');
  let rows = [];
  page.onLanguage((language) => {
    fillOptions(language);
    updateCost(page);
  });
  page.onKey(() => updateCost(page));
  onQuota(() => updateCost(page));
  form.addEventListener('change', () => updateCost(page));
  byId('p-csv').addEventListener('click', () => download(rows, page.state.language?.iso ?? 'lugha'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const language = page.state.language;
    if (!language) return;
    const plan = planOf(page);
    const out = byId('paradigm-result');
    byId('p-csv').disabled = true;
    if (plan.cells.length === 0) {
      fill(out, h('p', { role: 'alert' }, 'Choose at least one tense and one subject.'));
      return;
    }
    const results = [];
    let lastBody;
    for (let i = 0; i < plan.cells.length; i += plan.batch) {
      const chunk = plan.cells.slice(i, i + plan.batch);
      fill(out, h('p', { class: 'busy' }, `Generating forms ${i + 1}–${i + chunk.length} of ${plan.cells.length}…`));
      lastBody = { language: language.iso, items: chunk.map(({ tense, polarity, subject }) => ({ root: plan.root, tense, polarity, subject })) };
      const result = await call('/api/v1/batch-generate', { method: 'POST', body: lastBody });
      if (!result.ok) {
        fill(out, problemView(result), curlView(curlFor('/api/v1/batch-generate', { method: 'POST', body: lastBody })));
        return;
      }
      result.body.data.forEach((item, j) => results.push({ ...chunk[j], item }));
    }
    rows = results.map(({ tense, polarity, subject, item }) => ({
      root: plan.root,
      tense,
      polarity,
      subject,
      form: item.ok ? item.result.surface_form : '',
      english: item.ok ? item.result.english : '',
      note: item.ok ? '' : item.error.message,
    }));
    fill(out, tableView(rows, plan, language), curlView(curlFor('/api/v1/batch-generate', { method: 'POST', body: lastBody })));
    byId('p-csv').disabled = false;
  });
}

function fillOptions(language) {
  if (!language) {
    fill(byId('p-tenses'));
    fill(byId('p-subjects'));
    return;
  }
  // Checked at first: the first three tenses of the indicative that have a negative, and the six persons.
  const first = language.tenses.filter((t) => t.mood === language.tenses[0]?.mood && t.negative).slice(0, 3).map((t) => t.id);
  fill(
    byId('p-tenses'),
    language.tenses.map((t) =>
      h('label', { class: 'inline' }, h('input', { type: 'checkbox', name: 'tenses', value: t.id, checked: first.includes(t.id) }), ` ${t.id}`),
    ),
  );
  const persons = language.subjects.filter((s) => PERSONS.includes(s));
  fill(
    byId('p-subjects'),
    language.subjects.map((id) =>
      h('label', { class: 'inline' }, h('input', { type: 'checkbox', name: 'subjects', value: id, checked: persons.includes(id) }), ` ${agreementLabel(id)}`),
    ),
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

function updateCost(page) {
  if (!page.state.me || !page.state.language) {
    fill(byId('p-cost'));
    return;
  }
  const plan = planOf(page);
  const left = page.state.quota?.remaining;
  const short = left !== null && left !== undefined && plan.requests > left;
  byId('paradigm-form').querySelector('button[type="submit"]').disabled = short || plan.cells.length === 0;
  fill(
    byId('p-cost'),
    `${plan.cells.length} forms: ${plan.requests} request${plan.requests === 1 ? '' : 's'} of at most ${plan.batch} forms (your tier's batch size)` +
      (left === null || left === undefined ? '.' : `; ${left} requests left today.`) +
      (short ? ' Choose fewer tenses or subjects.' : ''),
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
