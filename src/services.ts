/**
 * The composition root: chooses each backend once from the configuration and
 * wires the services that HTTP routes, MCP tools and the CLI share.
 */
import path from 'node:path';
import { KeyService } from './access/key-service.js';
import { Meter } from './access/meter.js';
import { systemClock, type Clock } from './clock.js';
import { packageRoot, type Config } from './config.js';
import { LanguageCodes } from './language-codes.js';
import { loadCartridgeCatalog, type CartridgeMetadata } from './morphology/cartridge-catalog.js';
import { openSqliteStore } from './store/sqlite-store.js';
import type { Store } from './store/store.js';

export interface Services {
  config: Config;
  clock: Clock;
  store: Store;
  languageCodes: LanguageCodes;
  cartridges: readonly CartridgeMetadata[];
  keys: KeyService;
  meter: Meter;
  /** Closes every backend; safe to call twice. */
  close(): Promise<void>;
}

/** Opens the backends named by `config` and builds the services over them. */
export async function openServices(config: Config, options: { clock?: Clock } = {}): Promise<Services> {
  const clock = options.clock ?? systemClock;
  const languageCodes = LanguageCodes.fromReference(path.join(packageRoot, 'reference'));
  const cartridges = loadCartridgeCatalog(config.languagesDir);
  const store = await openSqliteStore({ dataDir: config.dataDir });
  let closed = false;
  return {
    config,
    clock,
    store,
    languageCodes,
    cartridges,
    keys: new KeyService({ store, clock, languageCodes }),
    meter: new Meter({ counter: store.quota, clock }),
    async close() {
      if (closed) return;
      closed = true;
      await store.close();
    },
  };
}
