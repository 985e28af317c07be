/**
 * A tool's zod schema with its JSON Schema computed once. The HTTP transport builds a
 * server per request, and the SDK converts a tool's schemas to JSON Schema on every
 * tools/list (and once per instance on tools/call): about 2 ms per schema, 25 ms for a
 * tools/list of 13 tools. The schemas never change while the process runs, so the
 * conversion is memoised per schema and target; validation still goes to zod.
 */
import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import type { z } from 'zod';

type Io = 'input' | 'output';

const wrapped = new WeakMap<z.ZodType, StandardSchemaWithJSON>();

const deferred = new WeakMap<z.ZodType, StandardSchemaWithJSON>();

/**
 * `schema` as a Standard Schema whose JSON Schema conversions are computed once (and frozen).
 * With `validate: 'deferred'` the SDK's own check accepts any value: the schema is still
 * advertised, and the caller validates after authorising and metering the call (server.ts).
 */
export function withCachedJsonSchema(schema: z.ZodType, options: { validate?: 'sdk' | 'deferred' } = {}): StandardSchemaWithJSON {
  if (options.validate === 'deferred') {
    const known = deferred.get(schema);
    if (known) return known;
    const inner = withCachedJsonSchema(schema)['~standard'];
    const passThrough: StandardSchemaWithJSON = { '~standard': { ...inner, validate: (value) => ({ value }) } };
    deferred.set(schema, passThrough);
    return passThrough;
  }
  const existing = wrapped.get(schema);
  if (existing) return existing;
  const standard = schema['~standard'] as unknown as StandardSchemaWithJSON['~standard'];
  const converted = new Map<string, Record<string, unknown>>();
  const convert = (io: Io) => (options: Parameters<StandardSchemaWithJSON['~standard']['jsonSchema']['input']>[0]) => {
    const key = `${io}:${String(options.target)}`;
    let json = converted.get(key);
    if (!json) {
      json = deepFreeze(standard.jsonSchema[io](options));
      converted.set(key, json);
    }
    return json;
  };
  const result: StandardSchemaWithJSON = {
    '~standard': {
      version: standard.version,
      vendor: standard.vendor,
      validate: (value) => standard.validate(value),
      jsonSchema: { input: convert('input'), output: convert('output') },
    },
  };
  wrapped.set(schema, result);
  return result;
}

/** Freezes a JSON value in place: a caller that tried to change the shared copy would throw. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
