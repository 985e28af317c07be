/**
 * Keeps API keys out of the logs: a key may arrive where no header redaction sees it (a
 * query string, a path, a body echoed in an error message), so every logged URL and every
 * string of a log call is scrubbed of anything shaped like a key or a credential parameter.
 */
import diagnostics from 'node:diagnostics_channel';
import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'fastify/types/logger.js';
import { KEY_PREFIX } from '../access/key-format.js';

const KEY_LIKE = new RegExp(`${KEY_PREFIX}[0-9A-Za-z]{6,}`, 'g');
/** Query parameters that carry credentials, whatever their value looks like. */
const CREDENTIAL_PARAMETER = /([?&;](?:api[_-]?key|key|access[_-]?token|token|auth|authorization|bearer|secret|password)=)[^&#;]*/gi;

/** Whether a string may hold what KEY_LIKE or CREDENTIAL_PARAMETER replace: one scan instead of two replacements. */
const MAY_HOLD_SECRET = new RegExp(`${KEY_PREFIX}[0-9A-Za-z]{6}|[?&;](?:api[_-]?key|key|access[_-]?token|token|auth|authorization|bearer|secret|password)=`, 'i');

/** `text` with keys and credential parameters replaced by `[redacted]`. */
export function redactSecrets(text: string): string {
  // Most strings (every request's URL, logged once per request) hold neither a key nor a
  // credential parameter: returned as they are, nothing allocated.
  if (!MAY_HOLD_SECRET.test(text)) return text;
  return text.replace(KEY_LIKE, `${KEY_PREFIX}[redacted]`).replace(CREDENTIAL_PARAMETER, '$1[redacted]');
}

/**
 * A log object with its strings scrubbed (a few levels deep: log objects are small). The value
 * itself when nothing needed scrubbing, so a log call with clean arguments allocates nothing here.
 */
function scrub(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactSecrets(value);
  if (depth > 4 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const scrubbed = value.map((v) => scrub(v, depth + 1));
    return scrubbed.some((v, i) => v !== value[i]) ? scrubbed : value;
  }
  // Requests, replies and errors go to their serializers as they are (req's scrubs the URL).
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;
  let copy: Record<string, unknown> | undefined;
  for (const key in value) {
    const original = (value as Record<string, unknown>)[key];
    const scrubbed = scrub(original, depth + 1);
    if (scrubbed !== original) (copy ??= { ...(value as Record<string, unknown>) })[key] = scrubbed;
  }
  return copy ?? value;
}

/**
 * Log lines gathered and written to standard output together, at most `maxDelayMs` after the
 * first of them or as soon as `maxBytes` wait: one write per batch instead of one per line.
 * Written on process exit (stdout to a file or pipe is synchronous on Linux); a process killed
 * outright loses at most the last `maxDelayMs` of lines.
 */
export class BatchedLines {
  #lines: string[] = [];
  #bytes = 0;
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly out: { write(chunk: string): unknown },
    private readonly maxBytes = 16_384,
    private readonly maxDelayMs = 50,
  ) {}

  write(line: string): void {
    this.#lines.push(line);
    this.#bytes += line.length;
    if (this.#bytes >= this.maxBytes) this.flush();
    else if (!this.#timer) {
      this.#timer = setTimeout(() => this.flush(), this.maxDelayMs);
      this.#timer.unref();
    }
  }

  flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#lines.length === 0) return;
    const text = this.#lines.join('');
    this.#lines = [];
    this.#bytes = 0;
    this.out.write(text);
  }
}

let stdoutLines: BatchedLines | undefined;

/** The process's one batched standard output for logs, written on exit. */
export function batchedStdout(): BatchedLines {
  if (!stdoutLines) {
    const lines = (stdoutLines = new BatchedLines(process.stdout));
    process.once('exit', () => lines.flush());
  }
  return stdoutLines;
}

type RequestLike = { method?: string; url?: string; hostname?: string; ip?: string; socket?: { remotePort?: number } };

/** Pino options for the service's logger: header redaction, a scrubbed request URL, scrubbed log calls. */
export function redactingLoggerOptions(level: string): Exclude<FastifyServerOptions['logger'], boolean | undefined> {
  return {
    level,
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' },
    serializers: {
      // Pino's error fields, with the message and stack scrubbed (a message may quote an input).
      err: (error: Error & { code?: unknown; statusCode?: unknown }) => ({
        type: error?.constructor?.name ?? 'Error',
        message: redactSecrets(String(error?.message ?? '')),
        stack: redactSecrets(String(error?.stack ?? '')),
        ...(error?.code !== undefined ? { code: error.code } : {}),
        ...(error?.statusCode !== undefined ? { statusCode: error.statusCode } : {}),
      }),
      req: (request: RequestLike) => ({
        method: request.method,
        url: redactSecrets(request.url ?? ''),
        host: request.hostname,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
    },
    hooks: { logMethod: scrubbingLogMethod },
  };
}

/** Pino's logMethod hook of the service's logger: every argument of a log call scrubbed of secrets. */
function scrubbingLogMethod(this: unknown, args: unknown[], method: (...args: unknown[]) => void): void {
  // The arguments as they are unless one needed scrubbing: a clean call copies nothing.
  let scrubbed: unknown[] | undefined;
  for (let i = 0; i < args.length; i++) {
    const value = scrub(args[i]);
    if (value !== args[i]) (scrubbed ??= [...args])[i] = value;
  }
  method.apply(this, scrubbed ?? args);
}

/** The request's line: its id, method, URL (scrubbed here), status and time in milliseconds. */
export type RequestLine = (reqId: string, method: string, url: string, statusCode: number, responseTime: number) => void;

/** The pieces of a pino logger a request's line is made of, read from the logger itself. */
interface PinoParts {
  /** The logger's private symbols by description (`pino.chindings`, …): those of the pino copy that made it. */
  symbols: Map<string, symbol>;
  /** The start of a line at `info`: `{"level":30` (as the logger's level formatter writes it). */
  level: string;
  /** The level's number (30 unless the logger has custom levels). */
  levelValue: number;
  /** What ends a line: `}` and a newline. */
  end: string;
}

/** Pino's tracing channel for its serialiser (lib/tools.js, `pino_asJson`): a line written by hand would not be traced. */
const asJsonTraced = diagnostics.channel('tracing:pino_asJson:start');

const requestLines = new WeakMap<FastifyBaseLogger, RequestLine>();

/**
 * The writer of the line Fastify's path writes for a completed request (`request completed`, at
 * `info`, with reqId, method, url, statusCode and responseTime), made once per logger. It is the
 * bytes pino itself would write for `logger.info({ reqId, method, url, statusCode, responseTime },
 * 'request completed')` — level, time and the logger's bindings (pid, hostname) as pino writes them,
 * then the fields, then `msg` — joined into one string and handed to the logger's destination,
 * without the log call's object, argument copy, hook pass and field loop: most of a kept answer's
 * log cost. Only for a logger set up as this module sets it up (no formatter of log objects, no
 * mixin, no nested key, no serialiser or stringifier of these fields, the scrubbing hook and no
 * other, a plain destination); any other logger, and a traced pino, get the ordinary `info` call.
 * The id is a request id (src/http/app.ts: a UUID or `[A-Za-z0-9._:-]{8,128}`), the method a token:
 * neither needs escaping; the URL is scrubbed and escaped as pino would.
 */
export function requestLine(logger: FastifyBaseLogger): RequestLine {
  let line = requestLines.get(logger);
  if (line === undefined) {
    const parts = pinoParts(logger);
    const slow: RequestLine = (reqId, method, url, statusCode, responseTime) => logger.info({ reqId, method, url: redactSecrets(url), statusCode, responseTime }, 'request completed');
    if (parts === undefined) line = slow;
    else {
      const pino = logger as unknown as Record<symbol, unknown> & { levelVal: number };
      const time = pino[parts.symbols.get('pino.time')!] as () => string;
      const chindings = parts.symbols.get('pino.chindings')!;
      const stream = pino[parts.symbols.get('pino.stream')!] as { write(line: string): unknown };
      const { level, levelValue, end } = parts;
      line = (reqId, method, url, statusCode, responseTime) => {
        if (pino.levelVal > levelValue) return;
        if (asJsonTraced.hasSubscribers) return slow(reqId, method, url, statusCode, responseTime);
        // As pino's asJson: level, time, bindings, the fields in their order, msg. Numbers as pino writes them (non-finite: null).
        const ms = Number.isFinite(responseTime) ? responseTime : null;
        stream.write(
          `${level}${time.call(pino)}${pino[chindings] as string},"reqId":"${reqId}","method":"${method}","url":${JSON.stringify(redactSecrets(url))},"statusCode":${statusCode},"responseTime":${ms},"msg":"request completed"${end}`,
        );
      };
    }
    requestLines.set(logger, line);
  }
  return line;
}

/** What {@link requestLine} needs of `logger` when it is a pino logger set up as this module sets one up; undefined otherwise. */
function pinoParts(logger: FastifyBaseLogger): PinoParts | undefined {
  const symbols = new Map<string, symbol>();
  for (let object: object | null = logger; object !== null && object !== Object.prototype; object = Object.getPrototypeOf(object) as object | null) {
    for (const symbol of Object.getOwnPropertySymbols(object)) if (symbol.description?.startsWith('pino.') && !symbols.has(symbol.description)) symbols.set(symbol.description, symbol);
  }
  const needed = ['pino.time', 'pino.chindings', 'pino.stream', 'pino.lsCache', 'pino.end', 'pino.messageKey', 'pino.stringifiers', 'pino.serializers', 'pino.formatters', 'pino.hooks'];
  if (needed.some((name) => !symbols.has(name))) return undefined;
  const pino = logger as unknown as Record<symbol, unknown> & { levels?: { values?: Record<string, number> }; levelVal?: unknown };
  const get = (name: string) => {
    const symbol = symbols.get(name);
    return symbol === undefined ? undefined : pino[symbol];
  };
  const levelValue = pino.levels?.values?.info;
  const level = typeof levelValue === 'number' ? (get('pino.lsCache') as Record<number, unknown>)[levelValue] : undefined;
  const end = get('pino.end');
  const hooks = get('pino.hooks') as { logMethod?: unknown; streamWrite?: unknown };
  const formatters = get('pino.formatters') as { log?: unknown };
  const serializers = get('pino.serializers') as Record<string, unknown>;
  const stringifiers = get('pino.stringifiers') as Record<string | symbol, unknown>;
  const stream = get('pino.stream') as { write?: unknown } | undefined;
  const fields = ['reqId', 'method', 'url', 'statusCode', 'responseTime', 'msg'];
  const plain =
    typeof levelValue === 'number' &&
    typeof level === 'string' &&
    typeof end === 'string' &&
    typeof pino.levelVal === 'number' &&
    typeof stream?.write === 'function' &&
    (stream as Record<symbol, unknown>)[Symbol.for('pino.metadata')] !== true &&
    get('pino.messageKey') === 'msg' &&
    !get('pino.mixin') &&
    !get('pino.nestedKey') &&
    get('pino.msgPrefix') === undefined &&
    formatters.log === undefined &&
    hooks.logMethod === scrubbingLogMethod &&
    hooks.streamWrite === undefined &&
    fields.every((field) => serializers[field] === undefined && stringifiers[field] === undefined) &&
    // A redaction path starting with a wildcard would apply to every field (pino's wildcardFirst stringifier).
    !Object.getOwnPropertySymbols(stringifiers).some((symbol) => symbol.description === 'pino.wildcardFirst');
  return plain ? { symbols, level, levelValue, end } : undefined;
}

type LogArgs = [unknown, ...unknown[]];

/**
 * A request's logger that becomes a real child logger (with the request id bound) only when
 * something is logged through it: most requests log nothing of their own (their one line is
 * written through the app's logger), so no child is made for them.
 */
class LazyChildLogger {
  #child: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  #real(): FastifyBaseLogger {
    return (this.#child ??= this.parent.child(this.bindings, this.options));
  }

  get level(): string {
    return this.#child?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: string) {
    this.#real().level = level;
  }

  fatal(...args: LogArgs): void {
    (this.#real().fatal as (...a: LogArgs) => void)(...args);
  }
  error(...args: LogArgs): void {
    (this.#real().error as (...a: LogArgs) => void)(...args);
  }
  warn(...args: LogArgs): void {
    (this.#real().warn as (...a: LogArgs) => void)(...args);
  }
  info(...args: LogArgs): void {
    (this.#real().info as (...a: LogArgs) => void)(...args);
  }
  debug(...args: LogArgs): void {
    (this.#real().debug as (...a: LogArgs) => void)(...args);
  }
  trace(...args: LogArgs): void {
    (this.#real().trace as (...a: LogArgs) => void)(...args);
  }
  silent(): void {}
  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#real().child(bindings, options);
  }
}

/** Fastify's childLoggerFactory: a LazyChildLogger per request. */
export function lazyChildLogger(logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  return new LazyChildLogger(logger, bindings, options) as unknown as FastifyBaseLogger;
}
