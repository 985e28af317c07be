/** Opens the services for one command run (from --data-dir and the environment) and closes them after. */
import { loadConfig } from '../config.js';
import { openServices, type Services } from '../services.js';

/** Options every store-backed command takes. */
export interface CommonOptions {
  dataDir?: string;
  json?: boolean;
}

export async function withServices<T>(options: CommonOptions, run: (services: Services) => Promise<T>): Promise<T> {
  const services = await openServices(loadConfig({ flags: { dataDir: options.dataDir } }));
  try {
    return await run(services);
  } finally {
    await services.close();
  }
}
