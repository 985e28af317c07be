/** The leak check the fault tests rely on: it must catch an address and must not trip on a request id. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertNothingInternal } from './helpers.js';

describe('assertNothingInternal', () => {
  it('catches a host, a port and a URL scheme wherever they appear', () => {
    assert.throws(() => assertNothingInternal('{"detail":"connect ECONNREFUSED 127.0.0.1:5432"}', ['127.0.0.1']), /"127\.0\.0\.1" in the body/);
    assert.throws(() => assertNothingInternal('{"detail":"port 5432 refused"}', ['5432']), /"5432"/);
    assert.throws(() => assertNothingInternal('{"detail":"db:5432/lugha"}', ['5432']), /"5432"/);
    assert.throws(() => assertNothingInternal('{"detail":"postgres://x"}', ['postgres://'], 'the status page'), /in the status page/);
  });

  it('does not take digits inside a request id or a longer number for a port', () => {
    assertNothingInternal('{"request_id":"250f1e2f-6457-4eb0-9640-a82325432fd3"}', ['5432']);
    assertNothingInternal('{"request_id":"250f1e2f-5432-4eb0-9640-a82325400fd3"}', ['5432']);
    assertNothingInternal('{"uptime_seconds":154321}', ['5432']);
  });
});
