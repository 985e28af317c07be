/**
 * Keeps API keys out of the logs: a key may arrive where no header redaction sees it (a
 * query string, a path, a body echoed in an error message), so every logged URL and every
 * string of a log call is scrubbed of anything shaped like a key or a credential parameter.
 */
import type { FastifyServerOptions } from 'fastify';
import { KEY_PREFIX } from '../access/key-format.js';

const KEY_LIKE = new RegExp(`${KEY_PREFIX}[0-9A-Za-z]{6,}`, 'g');
/** Query parameters that carry credentials, whatever their value looks like. */
const CREDENTIAL_PARAMETER = /([?&;](?:api[_-]?key|key|access[_-]?token|token|auth|authorization|bearer|secret|password)=)[^&#;]*/gi;

/** `text` with keys and credential parameters replaced by `[redacted]`. */
export function redactSecrets(text: string): string {
  return text.replace(KEY_LIKE, `${KEY_PREFIX}[redacted]`).replace(CREDENTIAL_PARAMETER, '$1[redacted]');
}

/** A copy of a log object with its strings scrubbed (a few levels deep: log objects are small). */
function scrub(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactSecrets(value);
  if (depth > 4 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => scrub(v, depth + 1));
  // Requests, replies and errors go to their serializers as they are (req's scrubs the URL).
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrub(v, depth + 1)]));
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
        method.apply(this, args.map((arg) => scrub(arg)));
      },
    },
  };
}
