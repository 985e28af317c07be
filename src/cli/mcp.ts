/** `lugha mcp`: the MCP server over stdio, for a local store or, with LUGHA_API_URL, a remote Lugha. */
import type { Command } from 'commander';
import { loadClientSettings, loadConfig } from '../config.js';
import { connectRemote, McpStartError, serveLocalStdio, serveRemoteStdio } from '../mcp/stdio.js';
import { openServices } from '../services.js';
import { CliError, EXIT_USAGE } from './output.js';

export function registerMcpCommand(program: Command): void {
  program
    .command('mcp')
    .description('serve the MCP tools over stdio for the key in LUGHA_API_KEY; with LUGHA_API_URL set, forward them to that Lugha service')
    .option('--data-dir <dir>', 'folder of the local store (ignored with LUGHA_API_URL)')
    .action(async (options: { dataDir?: string }) => {
      const { apiKey, apiUrl } = loadClientSettings();
      if (!apiKey) throw new CliError('set LUGHA_API_KEY to an API key (lugha_…); `lugha keys create` issues one', EXIT_USAGE);
      // stdout carries the protocol: every diagnostic goes to stderr.
      const log = (line: string) => process.stderr.write(`lugha mcp: ${line}\n`);
      try {
        if (apiUrl) {
          const { protocol, hostname } = new URL(apiUrl);
          if (protocol === 'http:' && !['localhost', '127.0.0.1', '[::1]'].includes(hostname)) {
            log(`warning: LUGHA_API_URL is plain http to ${hostname}; the API key travels unencrypted (use https)`);
          }
          await serveRemoteStdio(await connectRemote(apiUrl, apiKey), log);
          return;
        }
        const config = loadConfig({ flags: { dataDir: options.dataDir } });
        const services = await openServices(config);
        // Ready every language's analyser (from the frame cache on disk) once the first call is
        // answered (warming first would make initialize and that call wait on it), a step at a
        // time and only while no call is in flight; LUGHA_WARM_ANALYZERS=false leaves each
        // language to its first use, as for `lugha serve`.
        let closing = false;
        const warm = (quiet: () => Promise<void>) => void services.warmAnalyzers({ pause: quiet, stopped: () => closing }).catch((error: unknown) => log(`analysers not warmed: ${(error as Error).message}`));
        // SIGTERM/SIGINT end the session as the end of stdin does: the counts held for group commit
        // (keys without a daily limit, up to LUGHA_QUOTA_FLUSH_MS of them) are written before the
        // process exits. Left to the default action, a signal ended the process with them unwritten.
        // A second signal, or a close that outlasts LUGHA_SHUTDOWN_TIMEOUT_MS, exits at once.
        let signalled = false;
        const stop = new Promise<void>((resolve) => {
          const onSignal = (signal: NodeJS.Signals) => {
            if (signalled) {
              log(`second ${signal}: exiting now; request counts not yet written are lost`);
              process.exit(1);
            }
            signalled = true;
            const timer = setTimeout(() => {
              log('shutdown timed out; exiting');
              process.exit(1);
            }, config.shutdownTimeoutMs);
            timer.unref();
            resolve();
          };
          process.on('SIGTERM', onSignal);
          process.on('SIGINT', onSignal);
        });
        try {
          await serveLocalStdio(services, apiKey, log, { stop, ...(config.warmAnalyzers ? { whenIdle: warm } : {}) });
        } finally {
          closing = true;
          await services.close();
        }
      } catch (error) {
        if (error instanceof McpStartError) throw new CliError(error.message);
        throw error;
      }
    });
}
