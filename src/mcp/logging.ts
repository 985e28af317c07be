/**
 * Log messages to the client (`notifications/message`), sent only when the client asked:
 * on 2026-07-28 requests the SDK reads the level from the request itself; on 2025-11-25
 * connections only after `logging/setLevel`, at or above that level. (The SDK alone would
 * send every message to a 2025 client that never set a level, which turns each stateless
 * HTTP answer into an event stream.) Over stateless HTTP a level set by one request does not
 * reach the next, so 2025 HTTP clients get no log messages; stdio sessions do.
 */
import type { LoggingLevel, McpServer } from '@modelcontextprotocol/server';

const severity: Record<LoggingLevel, number> = { debug: 0, info: 1, notice: 2, warning: 3, error: 4, critical: 5, alert: 6, emergency: 7 };

/** What a request handler gets from the SDK to log with (`ctx.mcpReq.log`). */
export type RequestLog = (level: LoggingLevel, data: unknown, logger?: string) => Promise<void>;

/** Installs logging/setLevel on `server`; returns the function that logs for one request. */
export function installLogging(server: McpServer, logger: string): (log: RequestLog, level: LoggingLevel, data: unknown) => Promise<void> {
  let asked: LoggingLevel | undefined;
  server.server.setRequestHandler('logging/setLevel', async (request) => {
    asked = request.params.level;
    return {};
  });
  return async (log, level, data) => {
    const modern = (server.server.getNegotiatedProtocolVersion() ?? '') >= '2026';
    if (!modern && (asked === undefined || severity[level] < severity[asked])) return;
    await log(level, data, logger).catch(() => undefined);
  };
}
