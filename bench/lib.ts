/** Helpers the benchmarks share: child servers on free ports, load with autocannon, a printed table. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import autocannon from 'autocannon';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Starts a process and waits until `url` answers 200. */
export async function startServer(command: string, args: string[], url: string, env: NodeJS.ProcessEnv = process.env): Promise<ChildProcess> {
  const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'inherit'], env });
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(url)).ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill('SIGKILL');
  throw new Error(`${command} ${args.join(' ')} did not come up at ${url}`);
}

export async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

export interface LoadResult {
  requestsPerSecond: number;
  meanMs: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

/** Drives `url` with `connections` keep-alive connections for `seconds` (after a short warm-up). */
export async function load(url: string, options: { seconds: number; connections: number; headers?: Record<string, string> }): Promise<LoadResult> {
  await autocannon({ url, connections: options.connections, duration: 1, headers: options.headers });
  const result = await autocannon({ url, connections: options.connections, duration: options.seconds, headers: options.headers });
  return {
    requestsPerSecond: result.requests.average,
    meanMs: result.latency.average,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/** Prints rows of figure | Lugha | baseline | ratio (Lugha / baseline). */
export function printTable(title: string, rows: Array<{ figure: string; lugha: number; baseline: number; unit: string }>): void {
  const lines = [
    `\n${title}`,
    `${'figure'.padEnd(44)} ${'Lugha'.padStart(12)} ${'baseline'.padStart(12)} ${'ratio'.padStart(8)}`,
    ...rows.map((r) => {
      const ratio = r.baseline === 0 ? '-' : (r.lugha / r.baseline).toFixed(2);
      return `${`${r.figure} (${r.unit})`.padEnd(44)} ${fmt(r.lugha).padStart(12)} ${fmt(r.baseline).padStart(12)} ${ratio.padStart(8)}`;
    }),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

function fmt(n: number): string {
  return n >= 100 ? Math.round(n).toString() : n.toFixed(2);
}
