/**
 * The one place that reads configuration: environment variables and CLI flags,
 * validated by one zod schema into a frozen object. Precedence: flag > env > default.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/** Repository root (the folder holding package.json), found from this file's location. */
export const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const booleanish = z.union([
  z.boolean(),
  z.enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off']).transform((v) => ['true', '1', 'yes', 'on'].includes(v)),
]);

const durationMs = z.coerce.number().int().min(1).max(3_600_000);

/** Every setting, with its environment variable, CLI flag and meaning. */
export const settings = {
  host: { env: 'LUGHA_HOST', flag: '--host', secret: false, doc: 'Interface to listen on.' },
  port: { env: 'LUGHA_PORT', flag: '--port', secret: false, doc: 'TCP port to listen on (0 = any free port).' },
  dataDir: { env: 'LUGHA_DATA_DIR', flag: '--data-dir', secret: false, doc: 'Folder for the embedded database and other state.' },
  languagesDir: { env: 'LUGHA_LANGUAGES_DIR', flag: '--languages-dir', secret: false, doc: 'Folder of language cartridges.' },
  logLevel: { env: 'LUGHA_LOG_LEVEL', flag: '--log-level', secret: false, doc: 'Log level.' },
  bodyLimit: { env: 'LUGHA_BODY_LIMIT', flag: '--body-limit', secret: false, doc: 'Largest request body in bytes.' },
  requestTimeoutMs: { env: 'LUGHA_REQUEST_TIMEOUT_MS', flag: '--request-timeout-ms', secret: false, doc: 'Time allowed to receive a whole request.' },
  keepAliveTimeoutMs: { env: 'LUGHA_KEEP_ALIVE_TIMEOUT_MS', flag: '--keep-alive-timeout-ms', secret: false, doc: 'Idle time before a keep-alive connection is closed.' },
  shutdownTimeoutMs: { env: 'LUGHA_SHUTDOWN_TIMEOUT_MS', flag: '--shutdown-timeout-ms', secret: false, doc: 'Time allowed for in-flight requests on SIGTERM/SIGINT.' },
  corsOrigins: { env: 'LUGHA_CORS_ORIGINS', flag: '--cors-origins', secret: false, doc: 'Comma-separated allowed origins, or * for any.' },
  trustProxy: { env: 'LUGHA_TRUST_PROXY', flag: '--trust-proxy', secret: false, doc: 'Trust X-Forwarded-* headers from a reverse proxy.' },
  audioBase: { env: 'LUGHA_AUDIO_BASE', flag: '--audio-base', secret: false, doc: 'Path prefix of the audio API.' },
  sampleCap: { env: 'LUGHA_SAMPLE_CAP', flag: '--sample-cap', secret: false, doc: 'Clips per language and mode in the fixed sample that Evaluation and Pilot keys may play.' },
  demo: { env: 'LUGHA_DEMO', flag: '--demo', secret: false, doc: 'Create demo keys (and later demo data) on first start.' },
  modelsDir: { env: 'LUGHA_MODELS_DIR', flag: '--models-dir', secret: false, doc: 'Folder of HFST models (.hfstol + .model.yaml manifest); default <data dir>/models.' },
} as const;

export type SettingName = keyof typeof settings;

const schema = z
  .object({
    host: z.string().min(1).default('127.0.0.1'),
    port: z.coerce.number().int().min(0).max(65535).default(8080),
    dataDir: z.string().min(1).default('./data'),
    languagesDir: z.string().min(1).default(path.join(packageRoot, 'languages')),
    logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    bodyLimit: z.coerce.number().int().min(1024).max(64 * 1024 * 1024).default(1024 * 1024),
    requestTimeoutMs: durationMs.default(30_000),
    keepAliveTimeoutMs: durationMs.default(72_000),
    shutdownTimeoutMs: durationMs.default(10_000),
    corsOrigins: z
      .string()
      .default('*')
      .transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean))
      .pipe(z.array(z.union([z.literal('*'), z.url({ protocol: /^https?$/ })])).min(1)),
    trustProxy: booleanish.default(false),
    audioBase: z
      .string()
      .regex(/^(\/[A-Za-z0-9._~-]+)+$/, 'must be a path such as /api/audio (no trailing slash)')
      .default('/api/audio'),
    sampleCap: z.coerce.number().int().min(1).max(10_000).default(10),
    demo: booleanish.default(false),
    modelsDir: z.string().min(1).optional(),
  })
  .strict();

/** The validated, frozen configuration. */
export type Config = Readonly<Omit<z.output<typeof schema>, 'modelsDir'> & { modelsDir: string }>;

/** Raised when a setting has a bad value; `problems` has one line per bad value. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Flags as parsed by the CLI, keyed by setting name. */
export type ConfigFlags = Partial<Record<SettingName, string | number | boolean | undefined>>;

/**
 * Builds the configuration from the environment and CLI flags.
 * Throws ConfigError naming every bad value, its variable and its flag.
 */
export function loadConfig(options: { env?: NodeJS.ProcessEnv; flags?: ConfigFlags } = {}): Config {
  const env = options.env ?? process.env;
  const raw: Record<string, unknown> = {};
  const origin: Record<string, string> = {};
  for (const [name, setting] of Object.entries(settings)) {
    const fromFlag = options.flags?.[name as SettingName];
    const fromEnv = env[setting.env];
    if (fromFlag !== undefined) {
      raw[name] = fromFlag;
      origin[name] = `${setting.flag} (${setting.env})`;
    } else if (fromEnv !== undefined && fromEnv !== '') {
      raw[name] = fromEnv;
      origin[name] = `${setting.env} (${setting.flag})`;
    }
  }
  const unknown = Object.keys(env).filter(
    (k) => k.startsWith('LUGHA_') && !Object.values(settings).some((s) => s.env === k) && !CLIENT_VARIABLES.has(k),
  );
  const parsed = schema.safeParse(raw);
  const problems = unknown.map((k) => `${k}: unknown setting (known: ${Object.values(settings).map((s) => s.env).join(', ')})`);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const name = String(issue.path[0] ?? '');
      const setting = settings[name as SettingName];
      const where = origin[name] ?? (setting ? `${setting.env} (${setting.flag})` : name);
      problems.push(`${where}: ${issue.message}; got ${JSON.stringify(raw[name])}`);
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  const config = parsed.data!;
  const modelsDir = path.resolve(config.modelsDir ?? path.join(config.dataDir, 'models'));
  return Object.freeze({ ...config, dataDir: path.resolve(config.dataDir), languagesDir: path.resolve(config.languagesDir), modelsDir });
}

/** Variables read by clients of the service (the MCP bridge), not by the server. */
const CLIENT_VARIABLES = new Set(['LUGHA_API_KEY', 'LUGHA_API_URL']);

/** The configuration as printable JSON: secret settings and URL credentials replaced by "[redacted]". */
export function redactConfig(config: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(config)) {
    const setting = settings[name as SettingName] as { secret: boolean } | undefined;
    out[name] = setting?.secret ? '[redacted]' : redactValue(value);
  }
  return out;
}

function redactValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactValue);
  if (typeof value !== 'string' || !/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return value;
  try {
    const url = new URL(value);
    if (url.password) url.password = '[redacted]';
    for (const key of [...url.searchParams.keys()]) {
      if (/pass|secret|token|key/i.test(key)) url.searchParams.set(key, '[redacted]');
    }
    return url.toString();
  } catch {
    return value;
  }
}
