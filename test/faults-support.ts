/**
 * Fault injection for the faults-* tests, with real components: a TCP proxy that can be cut and
 * restored (a database that goes away and comes back), a `lugha serve` child process, and a
 * child process that holds a SQLite write lock.
 */
import { sqliteDriverPackage } from '../src/store/sqlite-driver.js';
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { packageRoot } from '../src/config.js';

export const bin = path.join(packageRoot, 'bin', 'lugha.js');

export interface TcpProxy {
  /** The loopback port the proxy listens on; stays the same across cut/restore. */
  readonly port: number;
  /** Closes the listener and resets every open connection: clients see the server vanish. */
  cut(): Promise<void>;
  /** Listens again on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

/** A proxy on a free loopback port forwarding to `target`. */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {});
    }
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve((server.address() as net.AddressInfo).port);
      });
    });
  const port = await listen(0);
  const stop = async () => {
    if (!server.listening) return;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of sockets) socket.resetAndDestroy();
    await closed;
  };
  return {
    port,
    cut: stop,
    async restore() {
      await listen(port);
    },
    close: stop,
  };
}

export interface ServeProcess {
  child: ChildProcess;
  origin: string;
  /** What the process wrote to stderr so far. */
  stderr(): string;
}

/** Starts `lugha serve --port 0` and resolves with its origin once it listens. */
export async function startServe(args: string[], env: NodeJS.ProcessEnv): Promise<ServeProcess> {
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const origin = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/[^\s]+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code, signal) => reject(new Error(`lugha serve exited (${code ?? signal}): ${stderr}`)));
  });
  return { child, origin, stderr: () => stderr };
}

/** Resolves once `child` has exited (at once when it already has). */
export function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

export interface LockHolder {
  /** Commits the holder's transaction and lets the process exit. */
  release(): Promise<void>;
}

/**
 * Another process (plain better-sqlite3, as an operator's tool would be) opens `file` and holds
 * `BEGIN EXCLUSIVE` until released. Resolves once the lock is held.
 */
export async function holdSqliteWriteLock(file: string): Promise<LockHolder> {
  const script = `
    const db = require(process.argv[2])(process.argv[1]);
    db.exec('BEGIN EXCLUSIVE');
    process.stdout.write('locked\\n');
    process.stdin.once('data', () => { db.exec('COMMIT'); db.close(); process.stdout.write('released\\n'); process.exit(0); });
  `;
  const driver = sqliteDriverPackage(Number(process.versions.node.split('.')[0]));
  const child = spawn(process.execPath, ['-e', script, file, driver], { cwd: packageRoot, stdio: ['pipe', 'pipe', 'inherit'] });
  const said = (word: string) =>
    new Promise<void>((resolve, reject) => {
      let out = '';
      const onData = (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes(word)) {
          child.stdout!.off('data', onData);
          resolve();
        }
      };
      child.stdout!.on('data', onData);
      child.once('exit', (code) => (out.includes(word) ? resolve() : reject(new Error(`lock holder exited with ${code} before "${word}"`))));
    });
  await said('locked');
  return {
    async release() {
      const released = said('released');
      child.stdin!.end('commit\n');
      await released;
      await exited(child);
    },
  };
}
