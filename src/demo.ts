/**
 * Demo data for `lugha serve --demo`: one key per tier, created on first start,
 * written to `<data-dir>/demo-keys.json` (mode 0600) and reused on later starts
 * while they still work; a demo key that stopped working is replaced.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Offer, Tier } from './access/plans.js';
import type { Services } from './services.js';

export const DEMO_KEYS_FILE = 'demo-keys.json';

/**
 * Which offer each tier's demo key carries. The pilot covers three installed cartridges, foundational
 * ones first, filled up with the first languages that have an ISO 639-1 code in reference/.
 */
const DEMO_PLANS: ReadonlyArray<{ tier: Tier; offer: Offer }> = [
  { tier: 'evaluation', offer: 'evaluation' },
  { tier: 'academic', offer: 'pilot' },
  { tier: 'startup', offer: 'full' },
  { tier: 'enterprise', offer: 'full' },
];

export interface DemoKey {
  tier: Tier;
  offer: Offer;
  id: string;
  key: string;
  languages: string[] | null;
  expires_at: string | null;
}

/** Returns working demo keys, creating the ones that are missing or no longer work. */
export async function ensureDemoKeys(services: Services): Promise<{ keys: DemoKey[]; file: string; created: number }> {
  const file = path.join(services.config.dataDir, DEMO_KEYS_FILE);
  const previous = readDemoKeys(file);
  const keys: DemoKey[] = [];
  let created = 0;
  for (const plan of DEMO_PLANS) {
    const old = previous.find((k) => k.tier === plan.tier && k.offer === plan.offer);
    if (old && (await services.keys.authenticate(`Bearer ${old.key}`)).ok) {
      keys.push(old);
      continue;
    }
    const languages = plan.offer === 'pilot' ? pilotLanguages(services) : undefined;
    const issued = await services.keys.create({ tier: plan.tier, offer: plan.offer, languages, name: `demo ${plan.tier}` });
    if (!issued.ok) throw new Error(`could not create the demo ${plan.tier} key: ${issued.message}`);
    const { record } = issued.value;
    keys.push({ tier: record.tier, offer: record.offer, id: record.id, key: issued.value.key, languages: record.languages, expires_at: record.expiresAt });
    created++;
  }
  if (created > 0) {
    const tmp = `${file}.tmp`;
    writeFileSync(tmp, `${JSON.stringify({ keys }, null, 2)}\n`, { mode: 0o600 });
    renameSync(tmp, file);
  }
  return { keys, file, created };
}

function readDemoKeys(file: string): DemoKey[] {
  if (!existsSync(file)) return [];
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { keys?: DemoKey[] };
    return Array.isArray(parsed.keys) ? parsed.keys : [];
  } catch {
    return [];
  }
}

function pilotLanguages(services: Services): string[] {
  // Foundational languages first: they are the ones the demo corpus has audio for.
  const languages = services.morphology.languages();
  const installed = [...languages.filter((l) => l.foundational), ...languages.filter((l) => !l.foundational)].map((l) => l.iso);
  return [...new Set([...installed, ...services.languageCodes.withIso639_1()])].slice(0, 3);
}
