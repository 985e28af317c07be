// The line written for every completed request (`request completed`) is joined by hand when the
// logger is set up as the app sets it up (src/http/log-redaction.ts, requestLine): it must be the
// bytes pino writes for the same log call, keep keys out of the URL, follow the logger's level, and
// give way to pino's own call for a logger configured otherwise (a log formatter, here).
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { redactingLoggerOptions, requestLine } from '../src/http/log-redaction.js';

/** A logger as the app makes it (src/http/app.ts), with `extra` options over it, and the text it writes. */
function logger(extra: Record<string, unknown> = {}): { log: FastifyBaseLogger; written: string[] } {
  const written: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      written.push(chunk.toString('utf8'));
      done();
    },
  });
  // A fixed time, so two lines written a millisecond apart can be compared byte for byte.
  const app = Fastify({ logger: { ...redactingLoggerOptions('info'), stream, timestamp: () => ',"time":1700000000000', ...extra } });
  return { log: app.log, written };
}

/** Lets the stream's writes land. */
const settled = () => new Promise((resolve) => setImmediate(resolve));

const URLS = ['/api/v1/conjugate?language=swh&root=penda&subject=3pl&tense=future', '/api/v1/conjugate?root=a"b\\c&note=%22', '/v1/languages?api_key=lugha_abcdef123456&x=1'];

describe('the request line', () => {
  it('is the bytes pino writes for the same call, the URL scrubbed of keys', async () => {
    const { log, written } = logger();
    const fields = (url: string) => ({ reqId: 'trace-0123456789', method: 'GET', url, statusCode: 200, responseTime: 0.123456 });
    for (const url of URLS) {
      requestLine(log)('trace-0123456789', 'GET', url, 200, 0.123456);
      log.info(fields(url), 'request completed');
    }
    await settled();
    assert.equal(written.length, URLS.length * 2);
    for (let i = 0; i < URLS.length; i++) assert.equal(written[2 * i], written[2 * i + 1], `line for ${URLS[i]}`);
    const redacted = JSON.parse(written[4]!) as Record<string, unknown>;
    assert.equal(redacted.url, '/v1/languages?api_key=[redacted]&x=1');
    assert.ok(!written.join('').includes('abcdef123456'), 'no key in any line');
    assert.deepEqual(Object.keys(JSON.parse(written[0]!) as object), ['level', 'time', 'pid', 'hostname', 'reqId', 'method', 'url', 'statusCode', 'responseTime', 'msg']);
  });

  it('follows the logger level, changed at run time', async () => {
    const { log, written } = logger({ level: 'warn' });
    requestLine(log)('trace-0123456789', 'HEAD', '/v1/languages', 304, 1);
    log.level = 'info';
    requestLine(log)('trace-0123456789', 'HEAD', '/v1/languages', 304, 1);
    await settled();
    assert.equal(written.length, 1);
    assert.equal((JSON.parse(written[0]!) as Record<string, unknown>).statusCode, 304);
  });

  it('goes through pino for a logger with a log formatter', async () => {
    const { log, written } = logger({ formatters: { log: (object: Record<string, unknown>) => ({ ...object, service: 'lugha' }) } });
    requestLine(log)('trace-0123456789', 'GET', '/v1/languages', 200, 2);
    await settled();
    const line = JSON.parse(written[0]!) as Record<string, unknown>;
    assert.equal(line.service, 'lugha');
    assert.equal(line.msg, 'request completed');
  });
});
