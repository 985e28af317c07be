/** `lugha config`: prints the resolved configuration with secrets redacted. */
import type { Command } from 'commander';
import { loadConfig, redactConfig, settings, type ConfigFlags, type SettingName } from '../config.js';
import { printJson } from './output.js';

export function registerConfigCommand(program: Command): void {
  program
    .command('config')
    .description('print the configuration the service would run with (secrets redacted)')
    .option('--port <n>', 'TCP port')
    .option('--host <h>', 'interface')
    .option('--data-dir <dir>', 'data directory')
    .option('--log-level <level>', 'log level')
    .option('--json', 'print JSON only')
    .action((options: ConfigFlags & { json?: boolean }) => {
      const { json, ...flags } = options;
      const shown = redactConfig(loadConfig({ flags }));
      if (json) {
        printJson(shown);
        return;
      }
      for (const [name, value] of Object.entries(shown)) {
        const setting = settings[name as SettingName];
        process.stdout.write(`${name.padEnd(20)} ${JSON.stringify(value).padEnd(40)} ${setting.env}\n`);
      }
    });
}
