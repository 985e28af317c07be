/**
 * CPU time of the one line written per completed request (`request completed`), in-process: the
 * line joined by src/http/log-redaction.ts `requestLine` against pino's own call
 * (`logger.info({ reqId, method, url, statusCode, responseTime }, 'request completed')`, as the
 * app wrote it before), both through a logger made as the app makes it (its redaction options and
 * a BatchedLines destination, here over a sink that drops the text). Rounds alternate the two so
 * both see the same machine load; the median of the rounds is printed.
 *
 *   npx tsx bench/log-line.ts [--lines 200000] [--rounds 7]
 */
import { parseArgs } from 'node:util';
import Fastify from 'fastify';
import { BatchedLines, redactingLoggerOptions, requestLine } from '../src/http/log-redaction.js';
import { printTable } from './lib.js';

const { values } = parseArgs({ options: { lines: { type: 'string', default: '200000' }, rounds: { type: 'string', default: '7' } } });
const lines = Number(values.lines);
const rounds = Number(values.rounds);

let written = 0;
const sink = new BatchedLines({ write: (text: string) => (written += text.length) });
const log = Fastify({ logger: { ...redactingLoggerOptions('info'), stream: sink } }).log;
const url = '/api/v1/conjugate?language=swh&root=penda&subject=3pl&tense=future&polarity=negative&object=c7';
const id = '6f1c2a4e-8d3b-4b7a-9c1e-2f5d7a9b0c3d';

const viaPino = () => log.info({ reqId: id, method: 'GET', url, statusCode: 200, responseTime: 0.123456 }, 'request completed');
const line = requestLine(log);
const joined = () => line(id, 'GET', url, 200, 0.123456);

/** CPU microseconds per call of `write`, over `lines` calls. */
function cpuPerLine(write: () => void): number {
  const start = process.cpuUsage();
  for (let i = 0; i < lines; i++) write();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / lines;
}

cpuPerLine(viaPino);
cpuPerLine(joined); // warm both
const pinoRuns: number[] = [];
const joinedRuns: number[] = [];
for (let r = 0; r < rounds; r++) {
  if (r % 2 === 0) {
    pinoRuns.push(cpuPerLine(viaPino));
    joinedRuns.push(cpuPerLine(joined));
  } else {
    joinedRuns.push(cpuPerLine(joined));
    pinoRuns.push(cpuPerLine(viaPino));
  }
}
sink.flush();
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
printTable(`The request line, CPU per line (${lines} lines a round, ${rounds} rounds alternated, median; ${written} characters written)`, [
  { figure: 'requestLine vs pino info(), CPU per line', lugha: median(joinedRuns), baseline: median(pinoRuns), unit: 'µs' },
]);
