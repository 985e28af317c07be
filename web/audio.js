// Audio: the languages with audio (GET /voices), the caller's playable clips per language and mode,
// a clip fetched with the key, played and drawn as a waveform with its switch_ms marker, and the
// language's dataset card.
import { call, service } from './api.js';
import { byId, fill, h } from './dom.js';
import { renderMarkdown } from './markdown.js';

let voices;
let objectUrl;

export function initAudio(page) {
  page.onKey(() => void load(page));
  byId('au-language').addEventListener('change', () => {
    syncModes();
    void loadCard();
  });
  byId('audio-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    await listClips();
  });
}

async function load(page) {
  const result = await call(`${service.audioBase}/voices`, { auth: Boolean(page.state.me) });
  fill(byId('audio-result'));
  fill(byId('audio-player'));
  if (!result.ok) {
    fill(byId('audio-coverage'), 'The audio coverage could not be loaded.');
    return;
  }
  voices = result.body;
  const select = byId('au-language');
  fill(
    select,
    voices.languages.map((l) => h('option', { value: l.language }, `${l.name ?? l.language} (${l.language})${l.playable === false ? ': not in your plan' : ''}`)),
  );
  select.disabled = voices.languages.length === 0;
  const firstPlayable = voices.languages.find((l) => l.playable !== false);
  if (firstPlayable) select.value = firstPlayable.language;
  fill(
    byId('audio-coverage'),
    page.state.me
      ? `Your key (${voices.tier}, offer ${voices.offer}) ${voices.sample_cap ? `plays a fixed sample of up to ${voices.sample_cap} clips per language and mode` : 'plays every clip'}.`
      : 'Paste a key to play clips; coverage is public.',
  );
  syncModes();
  await loadCard();
}

function selected() {
  return voices?.languages.find((l) => l.language === byId('au-language').value);
}

function syncModes() {
  const language = selected();
  const modes = language ? Object.keys(language.modes) : [];
  fill(
    byId('au-mode'),
    modes.map((m) => h('option', { value: m }, `${m} (${language.modes[m].clips} clips)`)),
  );
}

async function listClips() {
  const language = selected();
  const out = byId('audio-result');
  if (!language) return;
  const mode = byId('au-mode').value;
  fill(out, h('p', { class: 'busy' }, 'Listing clips…'));
  const result = await call(`${service.audioBase}/${encodeURIComponent(language.language)}/audio?${new URLSearchParams({ mode, n: '20' })}`);
  if (!result.ok) {
    fill(out, h('div', { class: 'problem', role: 'alert' }, h('p', { class: 'problem-title' }, result.problem?.title ?? 'Refused'), h('p', {}, result.problem?.detail ?? '')));
    return;
  }
  const clips = result.body.data;
  fill(
    out,
    h('p', {}, `${result.body.meta.total} clip${result.body.meta.total === 1 ? '' : 's'} you may play${result.body.meta.sample_capped ? ' (sample)' : ''}. Each play counts one request.`),
    h(
      'div',
      { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': 'Clips' },
      h(
        'table',
        { class: 'clips', id: 'clips-table' },
        h('caption', { class: 'visually-hidden' }, `Clips of ${language.name ?? language.language}, ${mode}`),
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            ['Numeral', 'Transcript', 'Duration', 'Switch', 'Source', ''].map((c) => h('th', { scope: 'col' }, c)),
          ),
        ),
        h(
          'tbody',
          {},
          clips.map((clip) =>
            h(
              'tr',
              {},
              h('td', {}, String(clip.numeral)),
              h('td', { lang: clip.language }, clip.transcript),
              h('td', {}, `${(clip.duration_ms / 1000).toFixed(2)} s`),
              h('td', {}, clip.switch_ms === null ? '—' : `${clip.switch_ms} ms${clip.switch_ms_detected ? ' (detected)' : ''}`),
              h('td', {}, clip.synthetic ? 'synthetic' : 'native speaker'),
              h('td', {}, h('button', { type: 'button', class: 'secondary', onclick: () => play(clip), 'aria-label': `Play ${clip.transcript}` }, 'Play')),
            ),
          ),
        ),
      ),
    ),
  );
}

/** Fetches the clip with the key, plays it from a blob URL and draws its waveform. */
async function play(clip) {
  const out = byId('audio-player');
  fill(out, h('p', { class: 'busy' }, `Loading ${clip.transcript}…`));
  const result = await call(clip.url, { as: 'bytes' });
  if (!result.ok) {
    fill(out, h('div', { class: 'problem', role: 'alert' }, h('p', { class: 'problem-title' }, result.problem?.title ?? 'Refused'), h('p', {}, result.problem?.detail ?? '')));
    return;
  }
  if (objectUrl) URL.revokeObjectURL(objectUrl);
  objectUrl = URL.createObjectURL(new Blob([result.body], { type: clip.content_type }));
  const canvas = h('canvas', { width: 800, height: 160, class: 'waveform', id: 'waveform', role: 'img', 'aria-label': waveformLabel(clip) });
  const audio = h('audio', { controls: true, src: objectUrl, 'aria-label': `Clip: ${clip.transcript}` });
  fill(out, h('h3', {}, `“${clip.transcript}”`, clip.transcript_english ? ` (${clip.transcript_english})` : ''), audio, canvas, h('p', { class: 'help' }, waveformLabel(clip)));
  try {
    const context = new OfflineAudioContext(1, 1, 44100);
    const buffer = await context.decodeAudioData(result.body.slice(0));
    drawWaveform(canvas, buffer, clip);
    canvas.dataset.decoded = String(buffer.length);
  } catch (error) {
    out.append(h('p', { role: 'alert' }, `This browser cannot decode ${clip.format} audio for the waveform (${error.message}).`));
  }
}

function waveformLabel(clip) {
  const total = `${(clip.duration_ms / 1000).toFixed(2)} s`;
  return clip.switch_ms === null ? `Waveform of the clip, ${total}, ${clip.mode}.` : `Waveform of the clip, ${total}; the switch from the Bantu numeral into English is at ${clip.switch_ms} ms (marked).`;
}

/** Min/max per pixel column of the first channel, and a line at switch_ms. */
function drawWaveform(canvas, buffer, clip) {
  const ctx = canvas.getContext('2d');
  const { width, height } = canvas;
  const samples = buffer.getChannelData(0);
  const perPixel = Math.max(1, Math.floor(samples.length / width));
  ctx.fillStyle = '#f4f1ea';
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = '#1f5f5b';
  for (let x = 0; x < width; x++) {
    let min = 1;
    let max = -1;
    for (let i = x * perPixel; i < Math.min(samples.length, (x + 1) * perPixel); i++) {
      if (samples[i] < min) min = samples[i];
      if (samples[i] > max) max = samples[i];
    }
    if (min > max) continue;
    const top = ((1 - max) / 2) * height;
    ctx.fillRect(x, top, 1, Math.max(1, ((max - min) / 2) * height));
  }
  if (clip.switch_ms !== null) {
    const x = Math.round((clip.switch_ms / 1000 / buffer.duration) * width);
    ctx.fillStyle = '#a3201b';
    ctx.fillRect(x - 1, 0, 2, height);
    ctx.font = '14px system-ui, sans-serif';
    ctx.fillText(`switch ${clip.switch_ms} ms`, Math.min(x + 6, width - 120), 18);
    canvas.dataset.switchX = String(x);
  }
}

async function loadCard() {
  const language = selected();
  const out = byId('dataset-card');
  if (!language) {
    fill(out);
    return;
  }
  const result = await call(`${service.audioBase}/${encodeURIComponent(language.language)}/dataset-card`, { auth: false, accept: 'application/json' });
  if (!result.ok) {
    fill(out, h('p', {}, 'The dataset card could not be loaded.'));
    return;
  }
  const { metadata, prose } = result.body;
  fill(
    out,
    h('div', { class: 'card-prose', id: 'card-prose' }, renderMarkdown(prose)),
    h('h4', {}, 'Front matter'),
    h(
      'dl',
      { class: 'front-matter' },
      Object.entries(metadata).map(([k, v]) => h('div', {}, h('dt', {}, k), h('dd', {}, typeof v === 'object' ? JSON.stringify(v) : String(v)))),
    ),
    h(
      'p',
      {},
      h('a', { href: `${service.audioBase}/${encodeURIComponent(language.language)}/dataset-card` }, 'The card as markdown'),
      ' · ',
      h('a', { href: `${service.audioBase}/${encodeURIComponent(language.language)}/consent-manifest` }, 'consent manifest'),
    ),
  );
}
