/**
 * Throughput of the audio proxy (GET /api/audio/audio/{id} with an API key: key
 * lookup, quota upsert, offer/plan/sample/consent checks, streaming a 1 MB WAV
 * from the blob store) against a bare node:http static server streaming the same
 * file from disk, both measured in this run on this machine.
 *
 *   npx tsx bench/audio-proxy.ts [--seconds 10] [--connections 16]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { encodeWav } from '../src/audio/wav.js';
import { freePort, lughaCli, load, printTable, startLugha, startServer, stopServer, printLoadDetails } from './lib.js';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '10' }, connections: { type: 'string', default: '16' } } });
const seconds = Number(values.seconds);
const connections = Number(values.connections);

// 1 MB of 16 kHz mono 16-bit PCM: about 32.8 s of a tone with a pause.
const rate = 16_000;
const samples = new Float32Array((1024 * 1024 - 44) / 2);
for (let i = 0; i < samples.length; i++) samples[i] = i > samples.length / 2 && i < samples.length / 2 + rate / 2 ? 0 : 0.4 * Math.sin((2 * Math.PI * 220 * i) / rate);
const corpus = mkdtempSync(path.join(tmpdir(), 'lugha-bench-corpus-'));
const file = path.join(corpus, 'clip.wav');
writeFileSync(file, encodeWav(samples, rate));
writeFileSync(path.join(corpus, 'manifest.jsonl'), `${JSON.stringify({ file: 'clip.wav', language: 'swh', mode: 'bantu_only', numeral: 1, transcript: 'moja', speaker: 'bench', synthetic: true })}\n`);
writeFileSync(path.join(corpus, 'consent.jsonl'), `${JSON.stringify({ speaker: 'bench', form_version: 'bench', scopes: ['benchmark'], consented_on: '2026-01-01', jurisdiction: 'none' })}\n`);

const lugha = await startLugha();
try {
  lughaCli(['ingest', corpus, '--data-dir', lugha.dataDir]);
  const list = (await (await fetch(`${lugha.origin}/api/audio/swh/audio`, { headers: lugha.headers })).json()) as { data: Array<{ url: string; bytes: number }> };
  const clip = list.data[0]!;
  const url = `${lugha.origin}${clip.url}`;

  const port = await freePort();
  const script = `
    const http = require('node:http');
    const fs = require('node:fs');
    const size = fs.statSync(${JSON.stringify(file)}).size;
    http.createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': size, 'accept-ranges': 'bytes' });
      fs.createReadStream(${JSON.stringify(file)}).pipe(res);
    }).listen(${port}, '127.0.0.1');`;
  const baselineUrl = `http://127.0.0.1:${port}/`;
  const baseline = await startServer(process.execPath, ['-e', script], baselineUrl);

  // `lugha serve` builds its analysis frames in the background after start; let that finish first.
  await new Promise((r) => setTimeout(r, 8000));
  const lughaResult = await load(url, { seconds, connections, headers: lugha.headers });
  const baseResult = await load(baselineUrl, { seconds, connections });
  await stopServer(lugha.child);
  await stopServer(baseline);

  const usedToday = (JSON.parse(lughaCli(['keys', 'list', '--data-dir', lugha.dataDir, '--json'])) as Array<{ used_today: number }>)[0]?.used_today ?? 0;
  const mb = clip.bytes / (1024 * 1024);
  printTable(`Audio proxy vs bare node:http static server (${seconds} s, ${connections} connections, ${clip.bytes}-byte WAV)`, [
    { figure: 'requests/s', lugha: lughaResult.requestsPerSecond, baseline: baseResult.requestsPerSecond, unit: 'req/s' },
    { figure: 'throughput', lugha: lughaResult.requestsPerSecond * mb, baseline: baseResult.requestsPerSecond * mb, unit: 'MB/s' },
  ]);
  printLoadDetails(lughaResult, baseResult, usedToday);
} finally {
  await lugha.stop();
  rmSync(corpus, { recursive: true, force: true });
}
