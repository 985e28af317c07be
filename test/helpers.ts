/** Shared fixtures: a service stack on a temporary data directory with a manual clock. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Offer, Tier } from '../src/access/plans.js';
import { ManualClock } from '../src/clock.js';
import { loadConfig, type ConfigFlags } from '../src/config.js';
import { buildApp } from '../src/http/app.js';
import { openServices, type Services } from '../src/services.js';

export function tempDir(prefix = 'lugha-test-'): string {
  return mkdtempSync(path.join(tmpdir(), prefix));
}

export interface Harness {
  app: FastifyInstance;
  services: Services;
  clock: ManualClock;
  dataDir: string;
  /** Issues a key and returns its secret and id. */
  issue(tier: Tier, offer?: Offer, languages?: string[]): Promise<{ key: string; id: string }>;
  /** GET (or any method) with a bearer key. */
  call(key: string | undefined, options: InjectOptions | string): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/** A whole app over a fresh SQLite store; the clock starts at `start`. */
export async function harness(options: { start?: string; flags?: ConfigFlags; extraRoutes?: (app: FastifyInstance, services: Services) => Promise<void> | void } = {}): Promise<Harness> {
  const dataDir = tempDir();
  const clock = new ManualClock(options.start ?? '2026-03-10T12:00:00.000Z');
  const config = loadConfig({ env: {}, flags: { dataDir, logLevel: 'silent', ...options.flags } });
  const services = await openServices(config, { clock });
  const app = await buildApp(services);
  await options.extraRoutes?.(app, services);
  await app.ready();
  return {
    app,
    services,
    clock,
    dataDir,
    async issue(tier, offer = 'full', languages) {
      const issued = await services.keys.create({ tier, offer, languages: offer === 'pilot' ? (languages ?? ['swh', 'zul', 'sna']) : languages });
      if (!issued.ok) throw new Error(issued.message);
      return { key: issued.value.key, id: issued.value.record.id };
    },
    call(key, opts) {
      const base: InjectOptions = typeof opts === 'string' ? { method: 'GET', url: opts } : opts;
      const headers = { ...(base.headers ?? {}), ...(key === undefined ? {} : { authorization: `Bearer ${key}` }) };
      return app.inject({ ...base, headers });
    },
    async close() {
      await app.close();
      await services.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Asserts the response is a problem document and returns its body. */
export function problemOf(response: LightMyRequestResponse): Record<string, unknown> & { code: string; status: number } {
  const type = String(response.headers['content-type'] ?? '');
  if (!type.startsWith('application/problem+json')) {
    throw new Error(`expected problem+json, got ${type} ${response.statusCode}: ${response.body.slice(0, 300)}`);
  }
  return response.json();
}

const RANDOM_ID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/**
 * Asserts that nothing internal (a host, port, bucket, database name, secret) appears in a body a client
 * sees. Random ids the service mints (request ids are UUIDs) are blanked first, so a port number that
 * happens to occur in one is not taken for a leak; a number counts only where no digit is next to it.
 */
export function assertNothingInternal(body: string, internals: readonly string[], where = 'the body'): void {
  const seen = body.replace(RANDOM_ID, '<id>');
  for (const internal of internals) {
    const leaked = /^\d+$/.test(internal) ? new RegExp(`(?<!\\d)${internal}(?!\\d)`).test(seen) : seen.includes(internal);
    assert.ok(!leaked, `"${internal}" in ${where}: ${body}`);
  }
}
