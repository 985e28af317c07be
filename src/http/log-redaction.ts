/**
 * Keeps API keys out of the logs: a key may arrive where no header redaction sees it (a
 * query string, a path, a body echoed in an error message), so every logged URL and every
 * string of a log call is scrubbed of anything shaped like a key or a credential parameter.
 */
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
    hooks: {
      logMethod(args: unknown[], method: (...args: unknown[]) => void) {
        // The arguments as they are unless one needed scrubbing: a clean call (every request's line) copies nothing.
        let scrubbed: unknown[] | undefined;
        for (let i = 0; i < args.length; i++) {
          const value = scrub(args[i]);
          if (value !== args[i]) (scrubbed ??= [...args])[i] = value;
        }
        method.apply(this, scrubbed ?? args);
      },
    },
  };
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
