// Pins the product status API (/api/os): shapes, codes and aliases, 404 problems, caching, and the OpenAPI description.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { capabilityEvaluators } from '../src/coverage/capabilities.js';
import { harness, problemOf, type Harness } from './helpers.js';

describe('product status API', () => {
  let h: Harness;
  before(async () => {
    h = await harness();
  });
  after(() => h.close());

  it('reports service status, storage kind and health, and the next milestone from the roadmap', async () => {
    const res = await h.call(undefined, '/api/os/status');
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.equal(body.service.status, 'ok');
    assert.deepEqual(body.storage, { database: { kind: 'sqlite', healthy: true }, blobs: { kind: 'filesystem', healthy: true } });
    assert.equal(body.cartridges.installed, h.services.morphology.languages().length);
    const levels = body.cartridges.by_level;
    assert.equal(levels.none + levels.declared + levels.partial + levels.complete, body.cartridges.installed);
    assert.equal(body.roadmap.total, body.roadmap.milestones.length);
    assert.equal(body.roadmap.done, body.roadmap.milestones.filter((m: { done: boolean }) => m.done).length);
    const next = body.roadmap.next_milestone;
    assert.ok(next, 'some milestone is still open');
    assert.equal(next.id, body.roadmap.milestones.find((m: { done: boolean }) => !m.done).id);
    assert.ok(body.roadmap.milestones.every((m: { basis: string; evidence: string }) => m.evidence.length > 0 && ['computed', 'declared'].includes(m.basis)));
  });

  it('says degraded when the store does not answer', async () => {
    const local = await harness();
    try {
      await local.services.store.close();
      const body = (await local.call(undefined, '/api/os/status')).json();
      assert.equal(body.service.status, 'degraded');
      assert.equal(body.storage.database.healthy, false);
    } finally {
      await local.close();
    }
  });

  it('lists every declared cartridge with coverage per capability and measured accuracy', async () => {
    const body = (await h.call(undefined, '/api/os/cartridges')).json();
    const installed = h.services.morphology.languages().map((l) => l.iso);
    assert.deepEqual(
      body.cartridges.map((c: { iso: string }) => c.iso),
      installed,
    );
    assert.equal(body.count, installed.length);
    assert.deepEqual(
      body.capabilities.map((c: { id: string }) => c.id),
      capabilityEvaluators.map((e) => e.id),
    );
    assert.ok(installed.length >= 27, `${installed.length} cartridges`);
    for (const c of body.cartridges) {
      assert.deepEqual(
        Object.keys(c.capabilities),
        capabilityEvaluators.map((e) => e.id),
        c.iso,
      );
      assert.ok(c.files.includes('cartridge.yaml'));
    }
    const declared = body.cartridges.filter((c: { capabilities: { verb_conjugation: { level: string } } }) => c.capabilities.verb_conjugation.level === 'none');
    assert.ok(declared.length >= 20, 'at least 20 declared cartridges without a verb grammar');
    const measured = body.cartridges.filter((c: { measured_accuracy: unknown }) => c.measured_accuracy !== null);
    assert.ok(measured.length > 0);
    for (const c of measured) {
      assert.ok(c.measured_accuracy.inflection.accuracy >= 0 && c.measured_accuracy.inflection.accuracy <= 100);
      assert.match(c.measured_accuracy.dataset, /^unimorph\/[a-z]{3}\.dev\.tsv$/);
    }
  });

  it('finds a cartridge by ISO 639-3, ISO 639-1 or alias, in any case', async () => {
    const byThree = (await h.call(undefined, '/api/os/cartridges/swh')).json();
    for (const code of ['sw', 'SWA', 'Swh']) {
      const res = await h.call(undefined, `/api/os/cartridges/${code}`);
      assert.equal(res.statusCode, 200, code);
      assert.deepEqual(res.json(), byThree);
    }
    assert.equal(byThree.capabilities.syllables.level, 'complete');
    assert.ok(byThree.capabilities.verb_conjugation.golden.total <= byThree.golden_tests.total);
    assert.match(byThree.capabilities.verb_conjugation.evidence, /golden verb tests \d+\/\d+/);
  });

  it('answers an unknown or malformed code with a 404 problem', async () => {
    for (const code of ['xyz', 'bmv', 'not-a-code']) {
      const res = await h.call(undefined, `/api/os/cartridges/${code}`);
      assert.equal(res.statusCode, 404, code);
      assert.equal(problemOf(res).code, 'language_not_found');
    }
  });

  it('gives the template families in roadmap order, with their parts from the cartridges', async () => {
    const { families } = (await h.call(undefined, '/api/os/templates')).json();
    const names = families.map((f: { family: string }) => f.family);
    for (const f of ['verb', 'noun', 'numeral', 'tone', 'phonology']) assert.ok(names.includes(f), f);
    assert.deepEqual(
      families.map((f: { order: number }) => f.order),
      families.map((_: unknown, i: number) => i + 1),
    );
    assert.ok(names.indexOf('verb') < names.indexOf('numeral'), 'the roadmap builds verbs before numerals');
    const verb = families.find((f: { family: string }) => f.family === 'verb');
    for (const slot of ['subject', 'tam', 'root', 'fv']) assert.ok(verb.parts.includes(slot), slot);
    assert.ok(verb.capabilities.includes('verb_conjugation'));
    const phonology = families.find((f: { family: string }) => f.family === 'phonology');
    assert.ok(phonology.parts.includes('CV'));
    const total = (f: { cartridges: Record<string, number> }) => Object.values(f.cartridges).reduce((a, b) => a + b, 0);
    for (const f of families) assert.equal(total(f), h.services.morphology.languages().length, f.family);
  });

  it('sends ETag and Cache-Control, and 304 for a matching If-None-Match', async () => {
    for (const url of ['/api/os/status', '/api/os/layers', '/api/os/cartridges', '/api/os/cartridges/zul', '/api/os/templates']) {
      const first = await h.call(undefined, url);
      const etag = first.headers.etag;
      assert.match(String(etag), /^"[A-Za-z0-9_-]+"$/, url);
      assert.equal(first.headers['cache-control'], 'public, max-age=60');
      const again = await h.call(undefined, { method: 'GET', url, headers: { 'if-none-match': String(etag) } });
      assert.equal(again.statusCode, 304, url);
      assert.equal(again.body, '');
      const other = await h.call(undefined, { method: 'GET', url, headers: { 'if-none-match': '"stale"' } });
      assert.equal(other.statusCode, 200);
    }
  });

  it('describes every status route in the OpenAPI document', async () => {
    const doc = (await h.call(undefined, '/openapi.json')).json();
    for (const route of ['/api/os/status', '/api/os/layers', '/api/os/cartridges', '/api/os/cartridges/{iso}', '/api/os/templates']) {
      const op = doc.paths[route]?.get;
      assert.ok(op, route);
      assert.deepEqual(op.tags, ['status']);
      assert.ok(op.responses['200'].content['application/json'].schema, route);
      assert.equal(op.security, undefined, `${route} needs no key`);
    }
    assert.ok(doc.paths['/api/os/cartridges/{iso}'].get.responses['404']);
  });
});
