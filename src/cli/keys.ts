/** `lugha keys create|list|rotate|revoke`: the operator's key management. */
import type { Command } from 'commander';
import { offers, tierLimits, tiers } from '../access/plans.js';
import { parseDuration } from './duration.js';
import { withServices, type CommonOptions } from './with-services.js';
import { CliError, EXIT_USAGE, printJson, table } from './output.js';

export function registerKeyCommands(program: Command): void {
  const keys = program.command('keys').description('issue, list, rotate and revoke API keys');

  keys
    .command('create')
    .description('issue a key; it is printed once and stored only as a hash')
    .requiredOption('--tier <tier>', `rate-limit tier: ${tiers.join('|')}`)
    .requiredOption('--offer <offer>', `access offer: ${offers.join('|')}`)
    .option('--languages <codes>', 'comma-separated language codes (pilot: exactly 3)')
    .option('--name <text>', 'a label for listings')
    .option('--data-dir <dir>', 'data directory')
    .option('--json', 'print one JSON object')
    .action(async (options: CommonOptions & { tier: string; offer: string; languages?: string; name?: string }) => {
      const languages = options.languages
        ?.split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      await withServices(options, async (services) => {
        const issued = await services.keys.create({ tier: options.tier, offer: options.offer, languages, name: options.name });
        if (!issued.ok) throw new CliError(issued.message, EXIT_USAGE);
        const { key, record } = issued.value;
        if (options.json) {
          printJson({ key, id: record.id, tier: record.tier, offer: record.offer, languages: record.languages, expires_at: record.expiresAt });
          return;
        }
        process.stdout.write(
          `${key}\n\n` +
            `id:        ${record.id}\n` +
            `tier:      ${record.tier}\n` +
            `offer:     ${record.offer}\n` +
            `languages: ${record.languages?.join(', ') ?? (record.offer === 'full' ? 'all' : 'foundational')}\n` +
            `expires:   ${record.expiresAt ?? 'never'}\n\n` +
            'This is the only time the key is shown; it is stored as a hash.\n',
        );
      });
    });

  keys
    .command('list')
    .description("list keys with status and today's usage (never the keys themselves)")
    .option('--data-dir <dir>', 'data directory')
    .option('--json', 'print JSON')
    .action(async (options: CommonOptions) => {
      await withServices(options, async (services) => {
        const listing = await services.keys.list();
        if (options.json) {
          printJson(
            listing.map((k) => ({
              id: k.id,
              name: k.name,
              tier: k.tier,
              offer: k.offer,
              languages: k.languages,
              status: k.status,
              created_at: k.createdAt,
              expires_at: k.expiresAt,
              revoked_at: k.revokedAt,
              active_prefixes: k.activePrefixes,
              used_today: k.usedToday,
            })),
          );
          return;
        }
        if (listing.length === 0) {
          process.stdout.write('no keys yet; create one with: lugha keys create --tier evaluation --offer evaluation\n');
          return;
        }
        const rows = listing.map((k) => ({
          ID: k.id,
          NAME: k.name,
          TIER: k.tier,
          OFFER: k.offer,
          LANGUAGES: k.languages?.join(',') ?? '-',
          STATUS: k.status,
          PREFIX: k.activePrefixes.map((p) => `${p}…`).join(' '),
          EXPIRES: k.expiresAt?.slice(0, 10) ?? 'never',
          TODAY: `${k.usedToday}/${tierLimits[k.tier].dailyQuota ?? 'unlimited'}`,
        }));
        process.stdout.write(`${table(rows)}\n`);
      });
    });

  keys
    .command('rotate <id>')
    .description('give a key a new secret; the old one works until the grace period ends')
    .option('--grace <duration>', 'how long the old secret keeps working (e.g. 24h, 30m, 0)', '24h')
    .option('--data-dir <dir>', 'data directory')
    .option('--json', 'print one JSON object')
    .action(async (id: string, options: CommonOptions & { grace: string }) => {
      const graceMs = parseDuration(options.grace);
      if (graceMs === undefined) throw new CliError(`--grace "${options.grace}" is not a duration such as 24h, 30m, 90s or 0`, EXIT_USAGE);
      await withServices(options, async (services) => {
        const rotated = await services.keys.rotate(id, graceMs);
        if (!rotated.ok) throw new CliError(rotated.message);
        const { key, record, previousRetiresAt } = rotated.value;
        if (options.json) {
          printJson({ key, id: record.id, previous_key_retires_at: previousRetiresAt });
          return;
        }
        process.stdout.write(`${key}\n\nid: ${record.id}\nthe previous key works until ${previousRetiresAt}\n` + 'This is the only time the new key is shown.\n');
      });
    });

  keys
    .command('revoke <id>')
    .description('revoke a key with immediate effect')
    .option('--data-dir <dir>', 'data directory')
    .option('--json', 'print one JSON object')
    .action(async (id: string, options: CommonOptions) => {
      await withServices(options, async (services) => {
        const revoked = await services.keys.revoke(id);
        if (!revoked.ok) throw new CliError(revoked.message);
        if (options.json) printJson({ id, revoked_at: revoked.value.revokedAt });
        else process.stdout.write(`revoked ${id} at ${revoked.value.revokedAt}\n`);
      });
    });
}
