/** `lugha serve`: runs the HTTP service until SIGTERM/SIGINT, then drains and closes. */
import type { Command } from 'commander';
import { loadConfig, type ConfigFlags } from '../config.js';
import { ensureDemoCorpus } from '../audio/demo-corpus.js';
import { ensureDemoKeys } from '../demo.js';
import { buildApp, pendingSerializerSteps } from '../http/app.js';
import { openServices } from '../services.js';
import { CliError, EXIT_FAILURE } from './output.js';

export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('run the HTTP service')
    .option('--port <n>', 'TCP port (LUGHA_PORT, default 8080)')
    .option('--host <h>', 'interface (LUGHA_HOST, default 127.0.0.1)')
    .option('--data-dir <dir>', 'data directory (LUGHA_DATA_DIR, default ./data)')
    .option('--log-level <level>', 'log level (LUGHA_LOG_LEVEL, default info)')
    .option('--demo', 'create demo keys and a synthetic demo audio corpus on first start (LUGHA_DEMO)')
    .action(async (flags: ConfigFlags) => {
      const config = loadConfig({ flags });
      const services = await openServices(config);
      if (config.demo) {
        const demo = await ensureDemoKeys(services);
        process.stdout.write(`Demo keys (${demo.created > 0 ? `${demo.created} created` : 'reused'}; also in ${demo.file}):\n`);
        for (const k of demo.keys) process.stdout.write(`  ${k.tier.padEnd(10)} ${k.offer.padEnd(10)} ${k.key}\n`);
        const corpus = await ensureDemoCorpus(services);
        if (corpus.created) {
          process.stdout.write(`Demo audio: ${corpus.clips} synthetic numeral clips (${corpus.engine}; not native speakers) under ${config.audioBase}\n`);
        }
      }
      const app = await buildApp(services);
      let stopping = false;
      const stop = async (signal: string) => {
        if (stopping) {
          app.log.warn({ signal }, 'second signal: exiting now');
          process.exit(1);
        }
        stopping = true;
        app.log.info({ signal }, 'shutting down: draining in-flight requests');
        const timer = setTimeout(() => {
          app.log.error('shutdown timed out; exiting');
          process.exit(1);
        }, config.shutdownTimeoutMs);
        timer.unref();
        await app.close();
        await services.close();
        clearTimeout(timer);
        app.log.info('stopped');
        process.exit(0);
      };
      process.on('SIGTERM', () => void stop('SIGTERM'));
      process.on('SIGINT', () => void stop('SIGINT'));
      let address: string;
      try {
        address = await app.listen({ port: config.port, host: config.host });
      } catch (error) {
        const refusal = listenRefusal(error, config.port, config.host);
        if (refusal === undefined) throw error;
        await app.close();
        await services.close();
        throw new CliError(refusal, EXIT_FAILURE);
      }
      process.stdout.write(`Lugha listening on ${address} (API reference: ${address}/docs)\n`);
      // Analysis frames come from the cache on disk (dist/frames) or are built, in slices that let
      // requests and signals in, once listening; /readyz answers 503 until every language is ready.
      if (config.warmAnalyzers) {
        services
          .warmAnalyzers({
            stopped: () => stopping,
            onLanguage: (iso, source, ms) => app.log.info({ language: iso, source, ms }, 'analyzer ready'),
            // Each route's success serialiser, compiled now rather than by the route's first answer.
            steps: () => pendingSerializerSteps(app),
          })
          .catch((error: unknown) => app.log.error({ err: error }, 'analyzer warm-up failed; analysers will be built on first use'));
      }
    });
}

/**
 * One line for a port that cannot be listened on (taken, or privileged), naming the port and how
 * to choose another; undefined for any other failure.
 */
export function listenRefusal(error: unknown, port: number, host: string): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  const choose = 'choose another with --port <n> or LUGHA_PORT (npm start -- --port 8081)';
  if (code === 'EADDRINUSE') return `port ${port} on ${host} is already in use; ${choose}`;
  if (code === 'EACCES') return `port ${port} on ${host} needs privileges this user does not have; ${choose}`;
  if (code === 'EADDRNOTAVAIL') return `${host} is not an address of this machine (port ${port}); choose the interface with --host or LUGHA_HOST`;
  return undefined;
}
