// With the quota counters in Redis, an outage refuses metered requests with a 503 problem
// (quota_unavailable) instead of serving them uncounted, and names neither host nor port.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RedisQuotaCounter } from '../src/access/redis-quota-counter.js';
import { freshRedisPrefix, redisUp, skipUnless } from './backends.js';
import { assertNothingInternal, harness, problemOf } from './helpers.js';

const REDIS_INTERNALS = ['127.0.0.1', '6379', 'redis:'];

describe('Redis outage over HTTP', { skip: skipUnless('Redis', redisUp) }, () => {
  it('answers 503 quota_unavailable on metered routes, keeps public routes up, and /readyz says not ready', async () => {
    const fresh = freshRedisPrefix();
    const h = await harness({ flags: { redisUrl: fresh.url, redisPrefix: fresh.prefix } });
    try {
      const { key } = await h.issue('evaluation', 'evaluation');
      // A key without a limit is counted in memory for group commit, and is refused all the same.
      const unlimited = (await h.issue('enterprise')).key;
      assert.equal((await h.call(unlimited, '/api/v1/languages')).statusCode, 200);
      const ok = await h.call(key, '/api/v1/languages');
      assert.equal(ok.statusCode, 200);
      assert.match(String(ok.headers['ratelimit']), /r=99;/, 'counted in Redis');
      assert.equal((await h.call(undefined, '/readyz')).statusCode, 200);

      // Redis goes away under the running service.
      assert.ok(h.services.store.quota instanceof RedisQuotaCounter);
      await h.services.store.quota.close();

      const refused = await h.call(key, '/api/v1/languages');
      assert.equal(refused.statusCode, 503);
      const problem = problemOf(refused);
      assert.equal(problem.code, 'quota_unavailable');
      assert.equal(refused.headers['retry-after'], '5');
      assertNothingInternal(refused.body, REDIS_INTERNALS);
      const unlimitedRefused = await h.call(unlimited, '/api/v1/conjugate?language=swh&root=penda&subject=1sg&tense=present');
      assert.equal(unlimitedRefused.statusCode, 503);
      assert.equal(problemOf(unlimitedRefused).code, 'quota_unavailable');
      assertNothingInternal(unlimitedRefused.body, REDIS_INTERNALS);
      assert.equal((await h.call(undefined, '/readyz')).statusCode, 503);
      assert.equal((await h.call(undefined, '/healthz')).statusCode, 200);
      const status = await h.call(undefined, '/api/os/status');
      assert.equal((status.json() as { service: { status: string } }).service.status, 'degraded');
      assertNothingInternal(status.body, REDIS_INTERNALS);
    } finally {
      await h.close();
      await fresh.clean();
    }
  });
});
