// Coverage: the Narrow Bantu languages at their Glottolog coordinates on a bundled outline of Africa,
// coloured by what Lugha covers (GET /languages, GET /voices), with the same facts as tables.
import { call, service } from './api.js';
import { borders, height, land, project, source as outlineSource, width } from './africa-map.js';
import { byId, fill, h, s } from './dom.js';

const LEVELS = [
  { id: 'audio', label: 'cartridge and numeral audio' },
  { id: 'cartridge', label: 'cartridge (conjugation and analysis)' },
  { id: 'declared', label: 'cartridge declared (metadata, no conjugation yet)' },
  { id: 'none', label: 'not covered yet' },
];

/** How far Lugha covers a language with a cartridge. */
function levelOf(cartridge, withAudio) {
  if (withAudio.has(cartridge.iso)) return 'audio';
  return cartridge.capabilities.includes('conjugation') ? 'cartridge' : 'declared';
}

export function initCoverage(page) {
  page.onKey(() => void render(page));
}

async function render(page) {
  const out = byId('coverage-result');
  const [languoids, voices] = await Promise.all([call('/web/narrow-bantu.json', { auth: false }), call(`${service.audioBase}/voices`, { auth: false })]);
  if (!languoids.ok) {
    fill(out, h('p', { role: 'alert' }, 'The language coordinates could not be loaded.'));
    return;
  }
  const withAudio = new Map((voices.ok ? voices.body.languages : []).map((l) => [l.language, l]));
  const cartridges = page.state.languages;
  const byIso = new Map(cartridges.map((l) => [l.iso, l]));
  const byGlottocode = new Map(cartridges.filter((l) => l.glottocode).map((l) => [l.glottocode, l]));
  const points = languoids.body.languoids.map((l) => {
    const cartridge = (l.iso && byIso.get(l.iso)) || byGlottocode.get(l.glottocode);
    const level = cartridge ? levelOf(cartridge, withAudio) : 'none';
    return { ...l, cartridge, level };
  });
  // A cartridge language is drawn once, at its first languoid (Glottolog may list dialects with the same code).
  const seen = new Set();
  const covered = points.filter((p) => p.cartridge && !seen.has(p.cartridge.iso) && seen.add(p.cartridge.iso));
  // Cartridges whose code Glottolog's Narrow Bantu list does not carry (a macrolanguage code, say) are listed, not placed.
  const unplaced = cartridges.filter((l) => !seen.has(l.iso)).map((cartridge) => ({ cartridge, glottocode: cartridge.glottocode ?? '', guthrie: null, level: levelOf(cartridge, withAudio) }));
  const counts = Object.fromEntries(LEVELS.map((lv) => [lv.id, lv.id === 'none' ? points.filter((p) => p.level === 'none').length : covered.filter((p) => p.level === lv.id).length]));
  const levels = LEVELS.filter((lv) => lv.id !== 'declared' || counts.declared > 0);
  fill(byId('map-source'), `Map: ${outlineSource}; language locations: Glottolog 5.1 (CC-BY-4.0).`);

  const summary =
    `${points.length} Narrow Bantu languoids from Glottolog; Lugha covers ${covered.length} of them (${counts.audio} with numeral audio)` +
    (unplaced.length ? `, and ${unplaced.map((u) => `${u.cartridge.name} (${u.cartridge.iso})`).join(', ')} without Glottolog coordinates.` : '.');
  const map = s(
    'svg',
    { viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-labelledby': 'map-title map-desc', class: 'map', id: 'coverage-map' },
    s('title', { id: 'map-title' }, 'Map of Africa with the Narrow Bantu languages'),
    s('desc', { id: 'map-desc' }, `${summary} The tables below give the same facts.`),
    s('path', { d: land, class: 'land' }),
    s('path', { d: borders, class: 'borders' }),
    points
      .filter((p) => p.level === 'none')
      .map((p) => {
        const [x, y] = project(p.lon, p.lat);
        return s('circle', { cx: x.toFixed(1), cy: y.toFixed(1), r: 2.2, class: 'pt pt-none' }, s('title', {}, `${p.name}${p.iso ? ` (${p.iso})` : ''}: not covered yet`));
      }),
    covered.map((p) => {
      const [x, y] = project(p.lon, p.lat);
      return s(
        'g',
        { class: `covered pt-${p.level}`, 'data-iso': p.cartridge.iso },
        s('circle', { cx: x.toFixed(1), cy: y.toFixed(1), r: p.level === 'declared' ? 4.5 : 7, class: `pt pt-${p.level}` }),
        // Named on the map when the engine works in it; declared cartridges are named in the table.
        p.level === 'declared' ? null : s('text', { x: (x + 10).toFixed(1), y: (y + 4).toFixed(1), class: 'pt-label' }, p.cartridge.name),
        s('title', {}, `${p.cartridge.name} (${p.cartridge.iso}): ${LEVELS.find((lv) => lv.id === p.level).label}`),
      );
    }),
  );
  const legend = h(
    'ul',
    { class: 'legend' },
    levels.map((lv) => h('li', {}, h('span', { class: `swatch pt-${lv.id}`, 'aria-hidden': 'true' }), `${lv.label}: ${counts[lv.id]}`)),
  );
  const table = h(
    'table',
    { class: 'coverage-table', id: 'coverage-table' },
    h('caption', {}, 'Languages Lugha covers'),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ['Language', 'ISO 639-3', 'Glottocode', 'Guthrie', 'Capabilities', 'Audio clips', 'Golden tests'].map((c) => h('th', { scope: 'col' }, c)),
      ),
    ),
    h(
      'tbody',
      {},
      [...covered, ...unplaced].map((p) =>
        h(
          'tr',
          {},
          h('th', { scope: 'row' }, p.cartridge.name),
          h('td', {}, p.cartridge.iso),
          h('td', {}, p.glottocode || 'not on the map'),
          h('td', {}, p.cartridge.guthrie ?? p.guthrie ?? ''),
          h('td', {}, p.cartridge.capabilities.join(', ') || 'metadata only'),
          h('td', {}, String(withAudio.get(p.cartridge.iso)?.clips ?? 0)),
          h('td', {}, `${p.cartridge.golden_tests.passing}/${p.cartridge.golden_tests.total}`),
        ),
      ),
    ),
  );
  const all = h(
    'details',
    {},
    h('summary', {}, `Every Narrow Bantu languoid (${points.length})`),
    h(
      'div',
      { class: 'table-scroll tall', tabindex: '0', role: 'region', 'aria-label': 'Every Narrow Bantu languoid' },
      h(
        'table',
        { class: 'coverage-table' },
        h('caption', {}, 'Narrow Bantu languoids in Glottolog and Lugha coverage'),
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            ['Name', 'ISO 639-3', 'Glottocode', 'Guthrie', 'Countries', 'Latitude', 'Longitude', 'Lugha'].map((c) => h('th', { scope: 'col' }, c)),
          ),
        ),
        h(
          'tbody',
          {},
          points.map((p) =>
            h(
              'tr',
              {},
              h('th', { scope: 'row' }, p.name),
              h('td', {}, p.iso ?? ''),
              h('td', {}, p.glottocode),
              h('td', {}, p.guthrie ?? ''),
              h('td', {}, p.countries),
              h('td', {}, p.lat.toFixed(2)),
              h('td', {}, p.lon.toFixed(2)),
              h('td', {}, LEVELS.find((lv) => lv.id === p.level).label),
            ),
          ),
        ),
      ),
    ),
  );
  fill(
    out,
    h('p', { id: 'coverage-summary' }, summary),
    h('div', { class: 'map-wrap' }, map, legend),
    cartridges.length ? h('div', { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': 'Languages Lugha covers' }, table) : h('p', {}, 'With a key, the languages Lugha covers are marked on the map.'),
    all,
  );
}
