// Pins configuration: defaults, precedence of flags over environment, one clear message per bad value, redaction.
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig, redactConfig } from '../src/config.js';

describe('configuration', () => {
  it('runs on embedded defaults with nothing set', () => {
    const config = loadConfig({ env: {} });
    assert.equal(config.port, 8080);
    assert.equal(config.host, '127.0.0.1');
    assert.equal(config.dataDir, path.resolve('data'));
    assert.deepEqual(config.corsOrigins, ['*']);
    assert.ok(Object.isFrozen(config));
  });

  it('takes the environment, and a CLI flag over the environment', () => {
    const env = { LUGHA_PORT: '9000', LUGHA_DATA_DIR: '/tmp/from-env', LUGHA_TRUST_PROXY: 'yes' };
    assert.equal(loadConfig({ env }).port, 9000);
    assert.equal(loadConfig({ env }).trustProxy, true);
    const config = loadConfig({ env, flags: { port: '9100', dataDir: '/tmp/from-flag' } });
    assert.equal(config.port, 9100);
    assert.equal(config.dataDir, '/tmp/from-flag');
  });

  it('names every bad value with its variable, its flag and what it got', () => {
    const env = { LUGHA_PORT: 'eighty', LUGHA_LOG_LEVEL: 'loud', LUGHA_CORS_ORIGINS: 'ftp://x', LUGHA_PROT: '1' };
    assert.throws(
      () => loadConfig({ env }),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        const text = error.problems.join('\n');
        assert.match(text, /LUGHA_PORT \(--port\).*"eighty"/);
        assert.match(text, /LUGHA_LOG_LEVEL \(--log-level\).*"loud"/);
        assert.match(text, /LUGHA_CORS_ORIGINS/);
        assert.match(text, /LUGHA_PROT: unknown setting/);
        assert.equal(error.problems.length, 4);
        return true;
      },
    );
    assert.throws(() => loadConfig({ env: {}, flags: { port: '70000' } }), /--port \(LUGHA_PORT\).*70000/);
  });

  it('redacts credentials in URLs and secret-looking query parameters', () => {
    const shown = redactConfig({
      port: 8080,
      databaseUrl: 'postgres://lugha:hunter2@db.internal:5432/lugha',
      objectStore: 'https://s3.example/bucket?access_token=abc&region=x',
    });
    assert.equal(shown.port, 8080);
    assert.doesNotMatch(JSON.stringify(shown), /hunter2|abc/);
    assert.match(String(shown.databaseUrl), /lugha:%5Bredacted%5D@|\[redacted\]/);
  });
});

describe('configuration docs', () => {
  it('documents every setting with its variable and flag', async () => {
    const { readFileSync } = await import('node:fs');
    const { packageRoot, settings } = await import('../src/config.js');
    const doc = readFileSync(path.join(packageRoot, 'docs', 'configuration.md'), 'utf8');
    for (const [name, setting] of Object.entries(settings)) {
      assert.match(doc, new RegExp(`\\| ${name} \\| \`${setting.env}\` \\| \`${setting.flag}\``), name);
    }
  });
});
