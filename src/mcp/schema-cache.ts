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

const deferred = new WeakMap<z.ZodType, Map<string, StandardSchemaWithJSON>>();

/**
 * `schema` as a Standard Schema whose JSON Schema conversions are computed once (and frozen).
 * With `validate: 'deferred'` the SDK's own check accepts any value: the schema is still
 * advertised, and the caller validates after authorising and metering the call (server.ts).
 * `validate: 'none'` is the same pass-through, for a value the caller never needs to check: a
 * tool's output, which the engine builds to its type (test/mcp-tools.test.ts parses every
 * output a test gets with the tool's schema), as the REST routes' serialisers do not validate.
 */
export function withCachedJsonSchema(
  schema: z.ZodType,
  options: {
    validate?: 'sdk' | 'deferred' | 'none';
    /** Adds to the advertised input JSON Schema (deferred only); `key` names the annotation, as two tools may share a schema. */
    annotate?: { key: string; apply: (json: Record<string, unknown>) => Record<string, unknown> };
  } = {},
): StandardSchemaWithJSON {
  if (options.validate === 'deferred' || options.validate === 'none') {
    let forSchema = deferred.get(schema);
    if (!forSchema) deferred.set(schema, (forSchema = new Map()));
    const known = forSchema.get(options.annotate?.key ?? '');
    if (known) return known;
    const inner = withCachedJsonSchema(schema)['~standard'];
    const annotate = options.annotate?.apply;
    // The advertised input schema, with what annotate adds (argument examples), computed once per target.
    const annotated = new Map<string, Record<string, unknown>>();
    const input: typeof inner.jsonSchema.input = (target) => {
      if (!annotate) return inner.jsonSchema.input(target);
      const key = String(target.target);
      let json = annotated.get(key);
      if (!json) {
        json = deepFreeze(annotate(inner.jsonSchema.input(target)));
        annotated.set(key, json);
      }
      return json;
    };
    const passThrough: StandardSchemaWithJSON = { '~standard': { ...inner, jsonSchema: { ...inner.jsonSchema, input }, validate: (value) => ({ value }) } };
    forSchema.set(options.annotate?.key ?? '', passThrough);
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
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
