/// <reference lib="dom" />
/**
 * Browser fixtures for the try-it page tests: Debian's chromium driven by playwright-core (never a
 * downloaded browser), a `lugha serve --demo` on a free port over a temporary data directory, an
 * axe-core accessibility check, and the folder screenshots are saved to (gitignored).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { packageRoot } from '../src/config.js';
import { skipOrFailInCi } from './environment.js';
import { tempDir } from './helpers.js';

export const CHROMIUM = '/usr/bin/chromium';
export const ARTIFACTS = path.join(packageRoot, 'test-artifacts', 'web');

/** Why the browser tests cannot run here, or undefined when they can. Under CI=true a missing browser is a failure, not a skip. */
export function browserMissing(): string | undefined {
  if (existsSync(CHROMIUM)) return undefined;
  return skipOrFailInCi(`${CHROMIUM} is missing (Debian package chromium)`);
}

/** A fresh browser profile with the flags that keep chromium offline and quiet. */
export async function launchBrowser(viewport = { width: 1280, height: 900 }): Promise<BrowserContext> {
  return chromium.launchPersistentContext(tempDir('lugha-chromium-'), {
    executablePath: CHROMIUM,
    headless: true,
    viewport,
    acceptDownloads: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('LUGHA_')));

export interface DemoServer {
  url: string;
  dataDir: string;
  /** The demo keys `serve --demo` wrote, by tier. */
  keys: Record<string, string>;
  stop(): Promise<number | null>;
}

/** Starts the built `lugha serve --demo` on a free port over a fresh data directory. */
export function startDemoServer(extraArgs: string[] = []): Promise<DemoServer> {
  const dataDir = tempDir('lugha-web-');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(packageRoot, 'bin', 'lugha.js'), 'serve', '--demo', '--port', '0', '--data-dir', dataDir, '--log-level', 'warn', ...extraArgs], {
      env: cleanEnv,
    });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start: ${stdout} ${stderr}`));
    }, 60_000);
    child.stderr.on('data', (d) => (stderr += d));
    const onExit = (code: number | null) => reject(new Error(`server exited with ${code}: ${stderr}`));
    child.once('exit', onExit);
    child.stdout.on('data', (d) => {
      stdout += d;
      const match = /listening on (http:\/\/[^\s]+)/.exec(stdout);
      if (!match) return;
      clearTimeout(timer);
      child.off('exit', onExit);
      const demo = JSON.parse(readFileSync(path.join(dataDir, 'demo-keys.json'), 'utf8')) as { keys: Array<{ tier: string; key: string }> };
      resolve({
        url: match[1]!,
        dataDir,
        keys: Object.fromEntries(demo.keys.map((k) => [k.tier, k.key])),
        stop: () =>
          new Promise((done) => {
            if (child.exitCode !== null) return done(child.exitCode);
            child.once('exit', (code) => done(code));
            child.kill('SIGTERM');
          }),
      });
    });
  });
}

/** Collects console errors and uncaught exceptions of a page. */
export function watchConsole(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  return errors;
}

const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[] }>;
}

/** Runs axe-core (WCAG 2.x A/AA rules) in the page and returns the serious and critical violations. */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  // Evaluated over the DevTools protocol, so the page's CSP (script-src 'self') need not be loosened.
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Saves a screenshot under test-artifacts/web/. */
export async function screenshot(page: Page, name: string, fullPage = true): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage });
  return file;
}

/** Saves a screenshot of one element (a section of the page) under test-artifacts/web/. */
export async function screenshotOf(page: Page, selector: string, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name}.png`);
  await page.locator(selector).screenshot({ path: file });
  return file;
}
