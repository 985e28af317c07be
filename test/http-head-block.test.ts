// The header block of an early answer (src/http/head-block.ts) is written through Node's own
// response fields: on this Node its bytes must be those `writeHead` writes for the same headers
// (200, 304, HEAD, the Date line aside), and a response that is not the common case (HTTP/1.0,
// `Connection: close`, a request limit per socket, a header set before) must be left to `writeHead`.
import assert from 'node:assert/strict';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { headerLines, writeHeadBlock } from '../src/http/head-block.js';

const PAIRS = ['content-security-policy', "default-src 'self'", 'x-request-id', 'abcdefgh-1234', 'vary', 'Origin', 'etag', '"abc"'];
const BODY = Buffer.from('{"form":"hawataki-penda"}');

/** How the last response was written: by the block, or by writeHead because the block declined. */
let wrote: 'block' | 'writeHead' | undefined;

function answer(response: ServerResponse, path: string, status: number): void {
  const pairs = status === 304 ? PAIRS : [...PAIRS, 'content-type', 'application/json; charset=utf-8', 'content-length', String(BODY.length)];
  if (path.startsWith('/preset')) response.setHeader('x-preset', '1');
  if (path.includes('block') && writeHeadBlock(response, status, headerLines(pairs))) wrote = 'block';
  else {
    response.writeHead(status, pairs);
    wrote = 'writeHead';
  }
  if (status === 304) response.end();
  else response.end(BODY);
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening on a port');
  return address.port;
}

/** The raw bytes of the answer to `head` (a request without its final empty line), the Date line's value masked. */
async function raw(port: number, head: string): Promise<string> {
  const socket = connect(port, '127.0.0.1');
  socket.write(`${head}\r\n\r\n`);
  let text = '';
  socket.setEncoding('latin1');
  await new Promise<void>((resolve, reject) => {
    socket.setTimeout(5000, () => reject(new Error(`no complete answer to ${head}: ${text}`)));
    socket.on('data', (chunk: string) => {
      text += chunk;
      const end = text.indexOf('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(text)?.[1];
      const noBody = / 304 /.test(text.slice(0, 16)) || head.startsWith('HEAD');
      if (end >= 0 && text.length >= end + 4 + (noBody ? 0 : Number(length ?? 0))) resolve();
    });
    socket.on('error', reject);
    socket.on('end', resolve);
  });
  socket.destroy();
  return text.replace(/\r\nDate: [^\r]*/, '\r\nDate: (masked)');
}

describe('an early answer header block', () => {
  let server: Server;
  let limited: Server;
  let port = 0;
  let limitedPort = 0;
  before(async () => {
    const handler = (request: { url?: string }, response: ServerResponse) => answer(response, request.url ?? '', request.url?.includes('304') ? 304 : 200);
    server = createServer(handler);
    port = await listen(server);
    limited = createServer(handler);
    limited.maxRequestsPerSocket = 10;
    limitedPort = await listen(limited);
  });
  after(() => {
    server.close();
    limited.close();
  });

  it('is the bytes writeHead writes for a keep-alive GET, HEAD and 304', async () => {
    for (const [method, query] of [
      ['GET', ''],
      ['HEAD', ''],
      ['GET', '?304'],
    ] as const) {
      const viaBlock = await raw(port, `${method} /block${query} HTTP/1.1\r\nHost: a`);
      assert.equal(wrote, 'block', `${method} ${query}`);
      const viaWriteHead = await raw(port, `${method} /writehead${query} HTTP/1.1\r\nHost: a`);
      assert.equal(wrote, 'writeHead');
      assert.equal(viaBlock, viaWriteHead, `${method} ${query}`);
      assert.match(viaBlock, /\r\nDate: \(masked\)\r\nConnection: keep-alive\r\nKeep-Alive: timeout=5\r\n\r\n/);
    }
  });

  it('leaves to writeHead what is not a plain keep-alive answer', async () => {
    for (const [target, head] of [
      [port, 'GET /block HTTP/1.0\r\nHost: a'],
      [port, 'GET /block HTTP/1.1\r\nHost: a\r\nConnection: close'],
      [port, 'GET /preset-block HTTP/1.1\r\nHost: a'],
      [limitedPort, 'GET /block HTTP/1.1\r\nHost: a'],
    ] as const) {
      const text = await raw(target, head);
      assert.equal(wrote, 'writeHead', head);
      assert.match(text, /^HTTP\/1\.1 200 OK\r\n(x-preset: 1\r\n)?content-security-policy: /, head);
    }
  });

  it('refuses fixed lines writeHead would refuse, and those Node writes itself', () => {
    assert.throws(() => headerLines(['x-bad', 'a\r\nb']));
    assert.throws(() => headerLines(['bad name', 'a']));
    assert.throws(() => headerLines(['Connection', 'close']));
    assert.equal(headerLines(['a', '1', 'b', '2']), 'a: 1\r\nb: 2\r\n');
  });
});
