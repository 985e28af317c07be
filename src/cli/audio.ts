/** `lugha ingest` and `lugha consent list|withdraw`: the operator's audio corpus commands. */
import path from 'node:path';
import type { Command } from 'commander';
import { INGEST_LOCK, ingest, StorageFullError } from '../audio/ingest.js';
import { withServices, type CommonOptions } from './with-services.js';
import { CliError, EXIT_FAILURE, EXIT_USAGE, printJson, table } from './output.js';

export function registerAudioCommands(program: Command): void {
  program
    .command('ingest')
    .description('add recordings and their consent records from a folder or a manifest (see docs/audio.md)')
    .argument('<source>', 'a folder holding manifest.csv|jsonl and consent.csv|jsonl, or a manifest file')
    .option('--data-dir <dir>', 'data directory')
    .option('--json', 'print the report as JSON')
    .action(async (source: string, options: CommonOptions) => {
      await withServices(options, async (services) => {
        let report;
        try {
          report = await ingest(source, services, {
            progress: (line) => process.stderr.write(`${line}\n`),
            lockFile: path.join(services.config.dataDir, INGEST_LOCK),
          });
        } catch (error) {
          if (error instanceof Error && /manifest/.test(error.message)) throw new CliError(error.message, EXIT_USAGE);
          if (error instanceof Error && /another ingest is running/.test(error.message)) throw new CliError(error.message);
          if (error instanceof StorageFullError) throw new CliError(error.message, EXIT_FAILURE);
          throw error;
        }
        if (options.json) printJson(report);
        else {
          process.stdout.write(
            `ingested ${report.ingested} clip(s) (${report.detectedSwitches} with a detected switch point), ` +
              `${report.duplicates} duplicate(s) skipped, ${report.refused.length} refused; ` +
              `${report.consents.added} consent record(s) read, ${report.consents.refused.length} refused\n`,
          );
          for (const r of report.refused) process.stdout.write(`  refused ${r.file}: ${r.reason}\n`);
          for (const r of report.consents.refused) process.stdout.write(`  refused consent row ${r.row}: ${r.reason}\n`);
        }
        if (report.refused.length > 0 || report.consents.refused.length > 0) throw new CliError('some rows were refused (see the report)', EXIT_FAILURE);
      });
    });

  const consent = program.command('consent').description("list consent records or withdraw a speaker's consent");
  consent
    .command('list')
    .description("list consent records by the operator's speaker ids")
    .option('--data-dir <dir>', 'data directory')
    .option('--json', 'print JSON')
    .action(async (options: CommonOptions) => {
      await withServices(options, async (services) => {
        const rows = await services.store.audio.listConsents();
        const out = rows.map((r) => ({
          speaker: r.localId,
          form_version: r.formVersion,
          scopes: r.scopes,
          consented_on: r.consentedOn,
          jurisdiction: r.jurisdiction,
          status: r.status,
          withdrawn_at: r.withdrawnAt,
        }));
        if (options.json) return printJson(out);
        if (out.length === 0) return void process.stdout.write('no consent records\n');
        process.stdout.write(`${table(out.map((r) => ({ ...r, scopes: r.scopes.join(';'), withdrawn_at: r.withdrawn_at ?? '' })))}\n`);
      });
    });
  consent
    .command('withdraw')
    .description('withdraw every consent of a speaker, with immediate effect on every instance')
    .requiredOption('--speaker <id>', "the operator's speaker id, as in the consent file")
    .option('--data-dir <dir>', 'data directory')
    .action(async (options: CommonOptions & { speaker: string }) => {
      await withServices(options, async (services) => {
        const n = await services.store.audio.withdraw(options.speaker, services.clock.now().toISOString());
        if (n === 0) throw new CliError(`speaker "${options.speaker}" has no active consent record`, EXIT_FAILURE);
        process.stdout.write(`withdrew ${n} consent record(s) of ${options.speaker}; their clips are no longer listed or served\n`);
      });
    });
}
