// Pins that requests Node's HTTP parser refuses (431, a malformed request line, Content-Length with Transfer-Encoding) get problem+json with a request id and the security headers, as every other error does.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { harness, type Harness } from './helpers.js';

/** Sends raw bytes and returns everything the server writes before it closes the connection. */
function raw(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => (data += chunk));
    socket.on('end', () => resolve(data));
    socket.on('close', () => resolve(data));
    socket.on('error', reject);
    socket.write(request);
  });
}

function parse(response: string): { status: number; headers: Record<string, string>; body: Record<string, unknown> } {
  const [head, body] = [response.slice(0, response.indexOf('\r\n\r\n')), response.slice(response.indexOf('\r\n\r\n') + 4)];
  const [statusLine, ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine!.split(' ')[1]), headers, body: JSON.parse(body) as Record<string, unknown> };
}

describe("errors of Node's HTTP parser", () => {
  let h: Harness;
  let port: number;
  before(async () => {
    h = await harness();
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    port = (h.app.server.address() as AddressInfo).port;
  });
  after(async () => h.close());

  const cases: Array<[string, string, number, string]> = [
    ['headers over the limit', `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431, 'headers_too_large'],
    ['a malformed request line', 'GET /healthz HTTP/9.Z\r\nHost: x\r\n\r\n', 400, 'malformed_request'],
    ['Content-Length with Transfer-Encoding', 'POST /api/v1/batch-generate HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n', 400, 'malformed_request'],
  ];
  for (const [what, request, status, code] of cases) {
    it(`answers ${what} with ${status} problem+json, a request id and the security headers`, async () => {
      const response = parse(await raw(port, request));
      assert.equal(response.status, status);
      assert.match(response.headers['content-type'] ?? '', /^application\/problem\+json/);
      assert.equal(response.body.code, code);
      assert.equal(response.body.status, status);
      assert.match(String(response.body.request_id), /^[0-9a-f-]{36}$/);
      assert.equal(response.headers['x-request-id'], response.body.request_id);
      assert.equal(response.headers['x-content-type-options'], 'nosniff');
      assert.ok(response.headers['content-security-policy'], 'the security headers are sent');
      assert.equal(response.headers.connection, 'close');
    });
  }
});
