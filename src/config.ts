/**
 * The one place that reads configuration: environment variables and CLI flags,
 * validated by one zod schema into a frozen object. Precedence: flag > env > default.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/** Repository root (the folder holding package.json), found from this file's location. */
export const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

let version: string | undefined;
/** The product version, from package.json (read once, on first use). */
export function packageVersion(): string {
  version ??= (JSON.parse(readFileSync(path.join(packageRoot, 'package.json'), 'utf8')) as { version: string }).version;
  return version;
}

const booleanish = z.union([z.boolean(), z.enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off']).transform((v) => ['true', '1', 'yes', 'on'].includes(v))]);

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
  shutdownTimeoutMs: { env: 'LUGHA_SHUTDOWN_TIMEOUT_MS', flag: '--shutdown-timeout-ms', secret: false, doc: 'Time allowed for in-flight requests (lugha mcp: for writing its held counts) on SIGTERM/SIGINT.' },
  corsOrigins: { env: 'LUGHA_CORS_ORIGINS', flag: '--cors-origins', secret: false, doc: 'Comma-separated allowed origins, or * for any.' },
  trustProxy: { env: 'LUGHA_TRUST_PROXY', flag: '--trust-proxy', secret: false, doc: 'Trust X-Forwarded-* headers from a reverse proxy.' },
  audioBase: { env: 'LUGHA_AUDIO_BASE', flag: '--audio-base', secret: false, doc: 'Path prefix of the audio API.' },
  sampleCap: { env: 'LUGHA_SAMPLE_CAP', flag: '--sample-cap', secret: false, doc: 'Clips per language and mode in the fixed sample that Evaluation and Pilot keys may play.' },
  demo: { env: 'LUGHA_DEMO', flag: '--demo', secret: false, doc: 'Create demo keys (and later demo data) on first start.' },
  warmAnalyzers: { env: 'LUGHA_WARM_ANALYZERS', flag: '--warm-analyzers', secret: false, doc: 'Build every analyzer in the background after listening.' },
  databaseUrl: { env: 'LUGHA_DATABASE_URL', flag: '--database-url', secret: false, doc: 'postgres:// URL of a PostgreSQL store; unset = the embedded SQLite file.' },
  databasePoolSize: { env: 'LUGHA_DATABASE_POOL_SIZE', flag: '--database-pool-size', secret: false, doc: 'Connections per instance to PostgreSQL.' },
  redisUrl: { env: 'LUGHA_REDIS_URL', flag: '--redis-url', secret: false, doc: 'redis:// URL for the daily quota counters; unset = counters in the store.' },
  redisPrefix: { env: 'LUGHA_REDIS_PREFIX', flag: '--redis-prefix', secret: false, doc: 'Prefix of every Redis key Lugha writes.' },
  quotaFlushMs: {
    env: 'LUGHA_QUOTA_FLUSH_MS',
    flag: '--quota-flush-ms',
    secret: false,
    doc: 'Longest time the request counts of keys without a daily limit wait in memory before they are written together; 0 = each written before its answer.',
  },
  s3Bucket: { env: 'LUGHA_S3_BUCKET', flag: '--s3-bucket', secret: false, doc: 'S3 bucket for audio blobs; unset = blobs on the filesystem.' },
  s3Endpoint: { env: 'LUGHA_S3_ENDPOINT', flag: '--s3-endpoint', secret: false, doc: 'URL of an S3-compatible endpoint; unset = AWS.' },
  s3Region: { env: 'LUGHA_S3_REGION', flag: '--s3-region', secret: false, doc: 'S3 region.' },
  s3AccessKeyId: { env: 'LUGHA_S3_ACCESS_KEY_ID', flag: '--s3-access-key-id', secret: true, doc: 'S3 access key id; unset = the AWS default credential chain.' },
  s3SecretAccessKey: { env: 'LUGHA_S3_SECRET_ACCESS_KEY', flag: '--s3-secret-access-key', secret: true, doc: 'S3 secret access key.' },
  s3ForcePathStyle: { env: 'LUGHA_S3_FORCE_PATH_STYLE', flag: '--s3-force-path-style', secret: false, doc: 'Address the bucket in the path, not the host name.' },
  s3Prefix: { env: 'LUGHA_S3_PREFIX', flag: '--s3-prefix', secret: false, doc: 'Key prefix of every blob in the bucket.' },
  mcpOrigins: { env: 'LUGHA_MCP_ORIGINS', flag: '--mcp-origins', secret: false, doc: 'Comma-separated browser origins allowed to call /mcp; requests with any other Origin are refused.' },
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
    bodyLimit: z.coerce
      .number()
      .int()
      .min(1024)
      .max(64 * 1024 * 1024)
      .default(1024 * 1024),
    requestTimeoutMs: durationMs.default(30_000),
    keepAliveTimeoutMs: durationMs.default(72_000),
    shutdownTimeoutMs: durationMs.default(10_000),
    corsOrigins: z
      .string()
      .default('*')
      .transform((v) =>
        v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      )
      .pipe(z.array(z.union([z.literal('*'), z.url({ protocol: /^https?$/ })])).min(1)),
    trustProxy: booleanish.default(false),
    audioBase: z
      .string()
      .regex(/^(\/[A-Za-z0-9._~-]+)+$/, 'must be a path such as /api/audio (no trailing slash)')
      .default('/api/audio'),
    sampleCap: z.coerce.number().int().min(1).max(10_000).default(10),
    demo: booleanish.default(false),
    warmAnalyzers: booleanish.default(true),
    databaseUrl: z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// or postgresql:// URL' }).optional(),
    databasePoolSize: z.coerce.number().int().min(1).max(1000).default(10),
    redisUrl: z.url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' }).optional(),
    redisPrefix: z
      .string()
      .max(100)
      .regex(/^[A-Za-z0-9:_.-]*$/, 'letters, digits and : _ . - only')
      .default('lugha:'),
    // How long counts of keys without a limit may wait in memory before they are written together;
    // 0 writes each request's count before it is answered (docs/operations.md states the window).
    quotaFlushMs: z.coerce.number().int().min(0).max(10_000).default(250),
    s3Bucket: z
      .string()
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be an S3 bucket name (3-63 lowercase letters, digits, dots, hyphens)')
      .optional(),
    s3Endpoint: z.url({ protocol: /^https?$/, error: 'must be an http(s):// URL' }).optional(),
    s3Region: z.string().min(1).default('us-east-1'),
    s3AccessKeyId: z.string().min(1).optional(),
    s3SecretAccessKey: z.string().min(1).optional(),
    s3ForcePathStyle: booleanish.default(false),
    s3Prefix: z
      .string()
      .max(200)
      .regex(/^([A-Za-z0-9._-]+\/)*$/, 'must be empty or end with / (letters, digits, . _ -)')
      .default(''),
    mcpOrigins: z
      .string()
      .default('')
      .transform((v) =>
        v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      )
      .pipe(z.array(z.url({ protocol: /^https?$/ }).transform((u) => new URL(u).origin))),
    modelsDir: z.string().min(1).optional(),
  })
  .strict()
  .refine((c) => (c.s3AccessKeyId === undefined) === (c.s3SecretAccessKey === undefined), {
    path: ['s3SecretAccessKey'],
    message: 'LUGHA_S3_ACCESS_KEY_ID and LUGHA_S3_SECRET_ACCESS_KEY are set together or not at all',
  });

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
  const unknown = Object.keys(env).filter((k) => k.startsWith('LUGHA_') && !Object.values(settings).some((s) => s.env === k) && !CLIENT_VARIABLES.has(k));
  const parsed = schema.safeParse(raw);
  const problems = unknown.map(
    (k) =>
      `${k}: unknown setting (known: ${Object.values(settings)
        .map((s) => s.env)
        .join(', ')})`,
  );
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

/** What `lugha mcp` reads besides the configuration: the caller's key and, for a remote service, its base URL. */
export interface ClientSettings {
  apiKey?: string;
  apiUrl?: string;
}

/** Reads `LUGHA_API_KEY` and `LUGHA_API_URL` (http or https). Throws ConfigError for a malformed URL. */
/**
 * The AWS SDK warns on every start that its releases from 2027 will need a newer Node; Lugha pins
 * its SDK version through package-lock.json, so the warning tells an operator nothing to do. Set
 * here because this module is the only one that touches the environment.
 */
export function silenceAwsSdkNodeWarning(): void {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
}

export function loadClientSettings(env: NodeJS.ProcessEnv = process.env): ClientSettings {
  const apiKey = env.LUGHA_API_KEY?.trim() || undefined;
  const apiUrl = env.LUGHA_API_URL?.trim() || undefined;
  if (apiUrl !== undefined && !z.url({ protocol: /^https?$/ }).safeParse(apiUrl).success) {
    throw new ConfigError([`LUGHA_API_URL: must be an http(s) URL such as https://lugha.example.org; got ${JSON.stringify(apiUrl)}`]);
  }
  return { ...(apiKey ? { apiKey } : {}), ...(apiUrl ? { apiUrl } : {}) };
}

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
