/**
 * Finds the installed language cartridges: every `languages/<iso>/cartridge.yaml`.
 * Only the metadata is read here; the engine loads the rest. Adding a language is
 * adding a folder, never a line of code.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { metadataSchema, type CartridgeMetadata } from './cartridge.js';

export type { CartridgeMetadata };

/** Reads the metadata of every cartridge under `dir`, sorted by code. Throws naming the bad file. */
export function loadCartridgeCatalog(dir: string): CartridgeMetadata[] {
  if (!existsSync(dir)) return [];
  const found: CartridgeMetadata[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name, 'cartridge.yaml');
    if (!entry.isDirectory() || !existsSync(file)) continue;
    const parsed = metadataSchema.safeParse((parse(readFileSync(file, 'utf8')) as { metadata?: unknown })?.metadata);
    if (!parsed.success) throw new Error(`${entry.name}/cartridge.yaml: bad metadata: ${parsed.error.message}`);
    if (parsed.data.iso639_3 !== entry.name) {
      throw new Error(`${entry.name}/cartridge.yaml: metadata.iso639_3 is "${parsed.data.iso639_3}", but the folder is "${entry.name}"`);
    }
    found.push(parsed.data);
  }
  return found.sort((a, b) => a.iso639_3.localeCompare(b.iso639_3));
}
