// Pins the try-it page at / as a visitor uses it in a real browser (Debian chromium) against `lugha serve --demo`:
// the demo key and its quota, conjugation slot by slot with its curl command, analysis, a paradigm exported as CSV,
// the coverage map and its table, playable clips with their waveform and dataset card, pasted keys, keyboard use,
// a narrow screen, no console errors and no serious accessibility violations.
/// <reference lib="dom" />
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { packageRoot } from '../src/config.js';
import { readTsv } from '../src/language-codes.js';
import { browserMissing, launchBrowser, screenshot, screenshotOf, seriousViolations, startDemoServer, watchConsole, type DemoServer } from './web-browser.js';

const skip = browserMissing();

describe('the try-it page in a browser', { skip, timeout: 300_000 }, () => {
  let server: DemoServer;
  let browser: BrowserContext;
  let page: Page;
  let consoleErrors: string[];
  const expectedFailures: string[] = [];

  /** The API answer for a request, made directly with the demo Evaluation key. */
  async function api(pathAndQuery: string, init: RequestInit = {}) {
    const response = await fetch(new URL(pathAndQuery, server.url), {
      ...init,
      headers: { authorization: `Bearer ${server.keys.evaluation}`, 'content-type': 'application/json', ...(init.headers ?? {}) },
    });
    return { status: response.status, headers: response.headers, body: (await response.json()) as any };
  }

  /** Every language with a cartridge, from every page of GET /languages. */
  async function allLanguages(): Promise<any[]> {
    const out: any[] = [];
    for (let n = 1; ; n++) {
      const { body } = await api(`/api/v1/languages?per_page=200&page=${n}`);
      out.push(...body.data.filter((l: { has_cartridge?: boolean }) => l.has_cartridge !== false));
      if (n >= body.meta.pages) return out;
    }
  }

  async function quotaShown(): Promise<number> {
    const text = (await page.textContent('#key-quota')) ?? '';
    const match = /^(\d+) of (\d+)$/.exec(text.trim());
    assert.ok(match, `quota shows "${text}"`);
    return Number(match[1]);
  }

  async function remainingNow(): Promise<number> {
    const me = await api('/api/v1/me');
    return me.body.data[0].quota.remaining;
  }

  before(async () => {
    server = await startDemoServer();
    browser = await launchBrowser();
    page = browser.pages()[0] ?? (await browser.newPage());
    // The machine may be busy (analysis frames are built on first use): generous waits, no timing asserted.
    page.setDefaultTimeout(90_000);
    consoleErrors = watchConsole(page);
    await page.goto(server.url);
    await page.waitForSelector('#key-tier');
    await page.waitForSelector('#coverage-map');
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    if (server) rmSync(server.dataDir, { recursive: true, force: true });
  });

  it('uses the demo Evaluation key and shows its tier, offer and the quota the API reports', async () => {
    assert.equal(await page.textContent('#key-tier'), 'evaluation');
    assert.equal(await page.textContent('#key-offer'), 'evaluation');
    assert.equal(await page.textContent('#key-audio'), 'foundational languages');
    assert.equal(await quotaShown(), await remainingNow());
    assert.equal(await page.isVisible('#demo-key'), true);
    assert.equal(await page.evaluate(() => sessionStorage.getItem('lugha.key')), server.keys.evaluation, 'kept in session storage');
    assert.equal(await page.evaluate(() => localStorage.length), 0, 'nothing in local storage');
  });

  it('costs the shared demo key one metered request to load (the language list, fetched once) and shows what is left', async () => {
    const before = await remainingNow();
    await page.reload();
    await page.waitForSelector('#key-tier');
    await page.waitForSelector('#coverage-map');
    await page.waitForFunction(() => ((document.querySelector('#language') as HTMLSelectElement | null)?.options.length ?? 0) > 1);
    assert.equal(await remainingNow(), before - 1, 'one request for a page load');
    assert.equal(await quotaShown(), before - 1, 'the page shows the requests the key has left');
  });

  it('offers the languages, tenses, subjects and extensions the API lists', async () => {
    const languages = (await allLanguages()) as Array<{ iso: string; tenses: { id: string }[]; subjects: string[]; extensions: string[]; capabilities: string[] }>;
    const options = await page.$$eval('#language option', (els) => els.map((e) => (e as HTMLOptionElement).value));
    assert.deepEqual(
      options,
      languages.filter((l) => l.capabilities.includes('conjugation')).map((l) => l.iso),
    );
    for (const iso of ['swh', 'zul']) {
      const language = languages.find((l) => l.iso === iso)!;
      await page.selectOption('#language', iso);
      // Grouped by mood in the page, so compared as sets.
      assert.deepEqual((await page.$$eval('#c-tense option', (els) => els.map((e) => (e as HTMLOptionElement).value))).sort(), language.tenses.map((t) => t.id).sort());
      assert.deepEqual((await page.$$eval('#c-subject option', (els) => els.map((e) => (e as HTMLOptionElement).value))).filter(Boolean), language.subjects);
      assert.deepEqual(await page.$$eval('#c-extensions input', (els) => els.map((e) => (e as HTMLInputElement).value)), language.extensions);
    }
  });

  it('conjugates a verb slot by slot, with the gloss, the tone status and a curl command that gives the same answer', async () => {
    await page.selectOption('#language', 'swh');
    await page.fill('#c-root', 'penda');
    await page.selectOption('#c-subject', 'c2');
    await page.selectOption('#c-tense', 'future');
    await page.check('#c-negative');
    await page.selectOption('#c-object', 'c7');
    await page.click('#conjugate-form button[type=submit]');
    await page.waitForSelector('#c-surface');
    assert.equal(await quotaShown(), await remainingNow(), 'the quota follows the RateLimit header');
    const expected = (await api('/api/v1/conjugate?language=swh&root=penda&subject=c2&tense=future&polarity=negative&object=c7&include_tones=true')).body.data[0];
    assert.equal(await page.textContent('#c-surface'), expected.surface_form);
    assert.equal(await page.textContent('#c-gloss'), `“${expected.english}”`);
    const slots = await page.$$eval('#conjugate-result .slots > li', (els) =>
      els.map((li) => ({ cls: li.className, form: li.querySelector('.morph')?.textContent, id: li.querySelector('.slot-id')?.textContent ?? undefined })),
    );
    assert.deepEqual(
      slots,
      Object.entries(expected.slots as Record<string, { form: string; id?: string }>).map(([slot, m]) => ({ cls: `slot slot-${slot}`, form: m.form || '∅', id: m.id })),
    );
    // Each slot has its own colour.
    const colours = await page.$$eval('#conjugate-result .slots > li', (els) => els.map((li) => getComputedStyle(li).borderTopColor));
    assert.equal(new Set(colours).size, colours.length, `slot colours ${colours.join(' ')}`);
    assert.match((await page.textContent('#conjugate-result .tone')) ?? '', new RegExp(expected.tonal_analysis.status));
    // The curl command, run as it is shown (its URL with the key), answers the same form.
    const curl = (await page.textContent('#conjugate-result .curl')) ?? '';
    assert.match(curl, /^curl -H "Authorization: Bearer \$LUGHA_API_KEY" '/);
    assert.ok(!curl.includes(server.keys.evaluation!), 'the key itself is not shown');
    const url = /'(http[^']+)'$/.exec(curl)?.[1];
    assert.ok(url);
    const again = await api(url);
    assert.equal(again.body.data[0].surface_form, expected.surface_form);
    await screenshot(page, 'conjugate');
    await screenshotOf(page, '#conjugate', 'section-conjugate');
  });

  it('adds an extension slot when an extension is ticked', async () => {
    await page.uncheck('#c-negative').catch(() => undefined);
    await page.check('input[name="polarity"][value="positive"]');
    await page.selectOption('#c-object', '');
    await page.check('#c-extensions input[value="applicative"]');
    await page.click('#conjugate-form button[type=submit]');
    await page.waitForFunction(() => document.querySelector('#conjugate-result .slot-extensions') !== null);
    const expected = (await api('/api/v1/conjugate?language=swh&root=penda&subject=c2&tense=future&extensions=applicative&include_tones=true')).body.data[0];
    assert.equal(await page.textContent('#c-surface'), expected.surface_form);
    assert.equal(await page.textContent('#conjugate-result .slot-extensions .morph'), expected.slots.extensions.form);
    await page.uncheck('#c-extensions input[value="applicative"]');
  });

  it('shows the allowed values when the API refuses a parameter', async () => {
    await page.fill('#c-root', 'penda');
    await page.selectOption('#c-subject', '');
    await page.selectOption('#c-tense', 'present');
    await page.click('#conjugate-form button[type=submit]');
    await page.waitForSelector('#conjugate-result .problem');
    expectedFailures.push('/api/v1/conjugate?language=swh&root=penda&tense=present&polarity=positive&include_tones=true');
    const expected = await api('/api/v1/conjugate?language=swh&root=penda&tense=present&polarity=positive&include_tones=true');
    assert.equal(expected.status, 400);
    assert.match((await page.textContent('#conjugate-result .problem')) ?? '', new RegExp(expected.body.code));
    await page.selectOption('#c-subject', '1sg');
  });

  it('analyses a form, most plausible analysis first', async () => {
    await page.fill('#a-form', 'hawatakipenda');
    await page.press('#a-form', 'Enter');
    await page.waitForSelector('#analyse-result .analysis');
    const expected = (await api('/api/v1/analyze?form=hawatakipenda&per_page=10&language=swh')).body;
    const shown = await page.$$eval('#analyse-result .analysis', (els) => els.length);
    assert.equal(shown, expected.data.length);
    assert.match((await page.textContent('#analyse-result .analysis')) ?? '', new RegExp(`${expected.data[0].lemma}[\\s\\S]*${expected.data[0].english.replace(/[()]/g, '.')}`));
    // From the analysis back to the conjugation form: the same features give the same form.
    await page.click('#analyse-result .analysis button');
    assert.equal(await page.inputValue('#c-root'), expected.data[0].lemma);
    assert.equal(await page.inputValue('#c-tense'), expected.data[0].features.tense);
    await page.click('#conjugate-form button[type=submit]');
    await page.waitForFunction(() => document.querySelector('#c-surface')?.textContent === 'hawatakipenda');
    await page.fill('#a-form', 'xqzxqz');
    await page.click('#analyse-form button[type=submit]');
    await page.waitForSelector('#a-none');
  });

  it('builds a paradigm table one request per click, in batches the tier allows, and exports it as CSV', async () => {
    await page.fill('#p-root', 'penda');
    const tenses = await page.$$eval('#p-tenses input:checked', (els) => els.map((e) => (e as HTMLInputElement).value));
    const subjects = await page.$$eval('#p-subjects input:checked', (els) => els.map((e) => (e as HTMLInputElement).value));
    assert.ok(tenses.length > 0 && subjects.length > 0);
    const languages = (await allLanguages()) as Array<{ iso: string; tenses: { id: string; negative: boolean }[] }>;
    const swh = languages.find((l) => l.iso === 'swh')!;
    const cells = tenses.flatMap((t) => (swh.tenses.find((x) => x.id === t)!.negative ? ['positive', 'negative'] : ['positive']).flatMap((p) => subjects.map((s) => ({ t, p, s }))));
    const requests = Math.ceil(cells.length / 10);
    assert.match((await page.textContent('#p-cost')) ?? '', new RegExp(`^${cells.length} forms: ${requests} requests? of at most 10 forms .*one per click`));
    assert.ok(requests > 1, 'the default table is larger than one Evaluation batch');
    for (let click = 1; click <= requests; click++) {
      const before = await remainingNow();
      await page.click('#paradigm-form button[type=submit]');
      const done = Math.min(click * 10, cells.length);
      await page.waitForFunction(
        ([done, all]) => {
          const partial = document.querySelector('#p-partial')?.textContent ?? '';
          return document.querySelector('#paradigm-table') !== null && (done < all ? partial.startsWith(`${done} of ${all} forms`) : partial === '');
        },
        [done, cells.length] as const,
      );
      assert.equal(await remainingNow(), before - 1, `click ${click} of ${requests} costs one request`);
      assert.equal(await quotaShown(), before - 1, 'the page shows the requests left');
    }
    const expected = (
      await api('/api/v1/batch-generate', { method: 'POST', body: JSON.stringify({ language: 'swh', paradigm: { roots: ['penda'], tenses: [tenses[0]], subjects: [subjects[0]], polarity: ['positive', 'negative'] } }) })
    ).body.data;
    const firstRow = await page.$$eval('#paradigm-table tbody tr:first-child td', (els) => els.map((e) => e.textContent));
    assert.equal(firstRow[0], expected[0].result.surface_form);
    assert.equal(firstRow[1], expected[1].result.surface_form);
    assert.equal(await page.$$eval('#paradigm-table tbody tr', (els) => els.length), subjects.length);
    assert.equal(await page.$$eval('#paradigm-table tbody td', (els) => els.length), cells.length);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#p-csv')]);
    const csv = readFileSync((await download.path())!, 'utf8');
    const lines = csv.trimEnd().split('\r\n');
    assert.equal(lines[0], 'root,tense,polarity,subject,form,english,note');
    assert.equal(lines.length, cells.length + 1);
    assert.ok(lines[1]!.startsWith(`penda,${tenses[0]},positive,${subjects[0]},${expected[0].result.surface_form},`), lines[1]);
    assert.match(download.suggestedFilename(), /^paradigm-swh-penda\.csv$/);
    await screenshot(page, 'paradigm');
  });

  it('maps every Narrow Bantu languoid and marks the languages Lugha covers, with a table view', async () => {
    const reference = readTsv(path.join(packageRoot, 'reference', 'glottolog-narrow-bantu.tsv')).filter((r) => r.latitude && r.longitude);
    const languages = (await allLanguages()) as Array<{ iso: string; name: string; capabilities: string[] }>;
    const voices = (await (await fetch(new URL('/api/audio/voices', server.url))).json()) as { languages: Array<{ language: string }> };
    const placed = languages.filter((l) => reference.some((r) => r.iso639_3 === l.iso));
    assert.equal(await page.$$eval('#coverage-map circle.pt-none', (els) => els.length), reference.filter((r) => !languages.some((l) => l.iso === r.iso639_3)).length);
    const covered = await page.$$eval('#coverage-map g.covered', (els) => els.map((e) => ({ iso: e.getAttribute('data-iso'), cls: e.getAttribute('class') })));
    assert.deepEqual(covered.map((c) => c.iso).sort(), placed.map((l) => l.iso).sort());
    for (const c of covered) {
      const level = voices.languages.some((v) => v.language === c.iso) ? 'audio' : languages.find((l) => l.iso === c.iso)!.capabilities.includes('conjugation') ? 'cartridge' : 'declared';
      assert.equal(c.cls, `covered pt-${level}`, c.iso!);
    }
    const rows = await page.$$eval('#coverage-table tbody th', (els) => els.map((e) => e.textContent));
    assert.deepEqual([...rows].sort(), languages.map((l) => l.name).sort(), 'every cartridge is in the table, placed or not');
    assert.equal(await page.getAttribute('#coverage-map', 'role'), 'img');
    // The outline is bundled: the page made no request outside the service.
    const origins = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => new URL(e.name).origin));
    assert.deepEqual([...new Set(origins)], [new URL(server.url).origin]);
    await screenshotOf(page, '#coverage .map-wrap', 'section-coverage-map');
  });

  it('lists the playable clips, plays one with its waveform and switch marker, and renders the dataset card', async () => {
    await page.selectOption('#au-language', 'swh');
    await page.selectOption('#au-mode', 'bantu_english');
    await page.click('#audio-form button[type=submit]');
    await page.waitForSelector('#clips-table');
    const listed = (await api('/api/audio/swh/audio?mode=bantu_english&n=20')).body;
    assert.equal(await page.$$eval('#clips-table tbody tr', (els) => els.length), listed.data.length);
    const first = listed.data[0];
    await page.click('#clips-table tbody tr:first-child button');
    await page.waitForFunction(() => document.querySelector('#waveform')?.hasAttribute('data-decoded') === true, null, { timeout: 15_000 });
    const wave = await page.$eval('#waveform', (c) => {
      const canvas = c as HTMLCanvasElement;
      const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
      let ink = 0;
      for (let i = 0; i < data.length; i += 4) if (data[i]! < 100 && data[i + 1]! > 60) ink++;
      return { decoded: Number(canvas.dataset.decoded), switchX: Number(canvas.dataset.switchX), width: canvas.width, ink };
    });
    assert.ok(wave.decoded > 0, 'the clip was decoded');
    assert.ok(wave.ink > 100, 'the waveform is drawn');
    assert.ok(Math.abs(wave.switchX - Math.round((first.switch_ms / first.duration_ms) * wave.width)) <= 2, `switch marker at ${wave.switchX}`);
    assert.match((await page.getAttribute('#audio-player audio', 'src')) ?? '', /^blob:/);
    assert.match((await page.textContent('#audio-player')) ?? '', new RegExp(`${first.switch_ms} ms`));
    await page.click('#card-details summary');
    const card = (await (await fetch(new URL('/api/audio/swh/dataset-card', server.url), { headers: { accept: 'application/json' } })).json()) as { prose: string; metadata: { pretty_name: string } };
    const heading = /^# (.*)$/m.exec(card.prose)![1]!;
    assert.equal(await page.textContent('#card-prose h3'), heading);
    assert.match((await page.textContent('#dataset-card')) ?? '', new RegExp(card.metadata.pretty_name.replace(/[()]/g, '.')));
    await screenshot(page, 'audio');
  });

  it('has no serious or critical accessibility violations with every tool showing results', async () => {
    const violations = await seriousViolations(page);
    assert.deepEqual(violations, [], JSON.stringify(violations, null, 2));
  });

  it('is usable from the keyboard: skip link first, every control reachable and labelled', async () => {
    await page.reload();
    await page.waitForSelector('#key-tier');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Skip to the tools');
    const unlabelled = await page.$$eval('input, select, button', (els) =>
      els
        .filter((e) => !(e as HTMLElement).hidden && (e as HTMLElement).offsetParent !== null)
        .filter((e) => {
          const el = e as HTMLInputElement;
          return !(el.labels?.length || el.getAttribute('aria-label') || (el.tagName === 'BUTTON' && el.textContent?.trim()));
        })
        .map((e) => e.outerHTML.slice(0, 80)),
    );
    assert.deepEqual(unlabelled, []);
    // Conjugating with the keyboard only: focus the root, Enter submits.
    await page.selectOption('#language', 'swh');
    await page.fill('#c-root', 'penda');
    await page.focus('#c-root');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#c-surface');
  });

  it('fits a phone screen without sideways scrolling', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(50);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `page is ${overflow}px wider than the screen`);
    await screenshot(page, 'phone');
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('wrote nothing to the console', () => {
    // Only the browser's own line for the request the test made fail on purpose.
    const unexpected = consoleErrors.filter((e) => !expectedFailures.some((url) => e.startsWith('Failed to load resource') && e.includes(url)));
    assert.deepEqual(unexpected, []);
  });

  it('takes a pasted key for this tab and shows what the API says about a bad one', async () => {
    const context = await launchBrowser();
    try {
      const other = context.pages()[0] ?? (await context.newPage());
      const errors = watchConsole(other);
      await other.goto(server.url);
      await other.waitForSelector('#key-tier');
      await other.click('#forget-key');
      await other.waitForFunction(() => document.querySelector('#key-status')?.textContent?.includes('No key'));
      assert.equal(await other.evaluate(() => sessionStorage.getItem('lugha.key')), null);
      await other.fill('#key-input', server.keys.enterprise!);
      await other.press('#key-input', 'Enter');
      await other.waitForFunction(() => document.querySelector('#key-tier')?.textContent === 'enterprise');
      assert.equal(await other.textContent('#key-quota'), 'unlimited');
      assert.equal(await other.textContent('#key-offer'), 'full');
      await other.fill('#key-input', 'lugha_not-a-key');
      await other.click('#key-form button[type=submit]');
      await other.waitForSelector('#key-status .problem');
      assert.match((await other.textContent('#key-status .problem')) ?? '', /key_malformed/);
      // The browser logs the refused request itself (401); nothing else may be logged.
      assert.deepEqual(
        errors.filter((e) => !/status of 401/.test(e)),
        [],
      );
    } finally {
      await context.close();
    }
  });
});

describe('the try-it page without --demo', { skip, timeout: 120_000 }, () => {
  it('offers no demo key and asks for one', async () => {
    const server = await startDemoServer();
    // Same data directory, served again without --demo: the demo keys exist but are not offered.
    await server.stop();
    const { spawn } = await import('node:child_process');
    const child = spawn(process.execPath, [path.join(packageRoot, 'bin', 'lugha.js'), 'serve', '--port', '0', '--data-dir', server.dataDir, '--log-level', 'warn'], {
      env: Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('LUGHA_'))),
    });
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d) => {
        out += d;
        const m = /listening on (http:\/\/[^\s]+)/.exec(out);
        if (m) resolve(m[1]!);
      });
      child.once('exit', (code) => reject(new Error(`exited ${code}`)));
    });
    const browser = await launchBrowser();
    try {
      assert.equal((await fetch(new URL('/web/demo-key', url))).status, 404);
      const page = browser.pages()[0] ?? (await browser.newPage());
      await page.goto(url);
      await page.waitForSelector('#coverage-map');
      await page.waitForFunction(() => document.querySelector('#key-status')?.textContent?.includes('No key'));
      assert.equal(await page.isHidden('#demo-key'), true);
      assert.equal(await page.$$eval('#coverage-map circle.pt-none', (els) => els.length > 0), true, 'the map is public');
      const violations = await seriousViolations(page);
      assert.deepEqual(violations, [], JSON.stringify(violations, null, 2));
    } finally {
      await browser.close();
      await new Promise((done) => {
        child.once('exit', done);
        child.kill('SIGTERM');
      });
      rmSync(server.dataDir, { recursive: true, force: true });
    }
  });
});
