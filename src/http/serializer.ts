/**
 * Response serialisers compiled once per route and status from the route's zod response
 * schema: the zod schema is turned into JSON Schema and compiled by fast-json-stringify (what
 * Fastify itself uses), so a response is written by generated code that emits only the
 * declared members, with no per-request validation. A schema JSON Schema cannot express
 * (a transform, a codec) keeps the zod serialiser (encode, then JSON.stringify); so does any
 * single payload the compiled code refuses (it then fails or succeeds exactly as before).
 */
import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

type SerializerCompiler = Parameters<typeof zodSerializerCompiler>[0];

/** The JSON Schema of a zod response schema, or undefined when JSON Schema cannot carry it. */
export function responseJsonSchema(schema: unknown): Record<string, unknown> | undefined {
  const zod = schema instanceof z.ZodType ? schema : (schema as { properties?: unknown })?.properties;
  if (!(zod instanceof z.ZodType)) return undefined;
  try {
    return simplifyUnions(z.toJSONSchema(zod, { io: 'output', target: 'draft-7', unrepresentable: 'throw', reused: 'inline', cycles: 'ref' })) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** Keywords that only constrain a value, never change how fast-json-stringify writes a valid one. */
const CHECK_ONLY = new Set(['description', 'enum', 'minLength', 'maxLength', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'pattern', 'multipleOf']);
const PRIMITIVES = new Set(['string', 'number', 'integer', 'boolean']);
/** Keywords a closed object of a union may have to be merged with the others. */
const OBJECT_KEYS = new Set(['type', 'properties', 'required', 'additionalProperties', 'description']);

/**
 * A union rewritten, for the serialiser only, into a schema that writes the same JSON for every
 * value the union accepts and that fast-json-stringify writes without a validator. For an
 * `anyOf`/`oneOf` it picks the branch by running ajv on each value, and ajv compiles that
 * validator on the first value that reaches it: tens of milliseconds of one request after
 * /readyz. The OpenAPI description is generated from the zod schemas, not from this copy.
 * - one branch S of a plain type, with or without `{type: "null"}`: S, its type `[S.type, "null"]`
 *   when null is allowed;
 * - primitive branches (a type and checks only): one `type: [...]`, e.g. a string or a number;
 * - object branches: one object; two or more must be closed (`additionalProperties: false`) and
 *   are merged into one closed object with every branch's members, none required (a value of one
 *   branch has only that branch's members, written in the same order); a member two branches
 *   declare must have the same schema, or be a primitive of the same type in both (a `const`
 *   discriminator, written as the value has it);
 * - objects and primitives together: the object with `type: ["object", ...]` (fast-json-stringify
 *   tells them apart by the value's JavaScript type).
 * Anything else (arrays, nested unions, references) stays a union.
 */
function simplifyUnions(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(simplifyUnions);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) out[k] = simplifyUnions(v);
  const key = Array.isArray(out.anyOf) ? 'anyOf' : Array.isArray(out.oneOf) ? 'oneOf' : undefined;
  if (!key || !Object.keys(out).every((k) => k === key || k === 'description' || k === 'default' || k === '$schema')) return out;
  const { [key]: union, ...rest } = out;
  const branches = union as Array<Record<string, unknown>>;
  const isNull = (b: Record<string, unknown>) => b.type === 'null' && Object.keys(b).length === 1;
  const types = branches.some(isNull) ? ['null'] : [];
  const others = branches.filter((b) => !isNull(b));
  const only = others[0];
  if (only && others.length === 1 && typeof only.type === 'string' && (PRIMITIVES.has(only.type) || only.type === 'object' || only.type === 'array')) {
    return { ...only, ...rest, type: types.length ? [only.type, ...types] : only.type };
  }
  const objects = others.filter((b) => b.type === 'object');
  const primitives = others.filter((b) => typeof b.type === 'string' && PRIMITIVES.has(b.type) && Object.keys(b).every((k) => k === 'type' || CHECK_ONLY.has(k)));
  if (objects.length + primitives.length !== others.length) return out;
  const object = objects.length === 0 ? {} : objects.length === 1 ? objects[0] : mergeClosedObjects(objects);
  if (!object || (objects.length === 1 && !Object.keys(object).every((k) => OBJECT_KEYS.has(k)))) return out;
  const all = [...new Set([...(objects.length ? ['object'] : []), ...primitives.map((b) => b.type as string), ...types])];
  return { ...object, ...rest, type: all.length === 1 ? all[0] : all };
}

/** One closed object with the members of every branch, or undefined if a branch is not a closed object or two members clash. */
function mergeClosedObjects(branches: Array<Record<string, unknown>>): Record<string, unknown> | undefined {
  const properties: Record<string, unknown> = {};
  for (const branch of branches) {
    if (branch.additionalProperties !== false || !Object.keys(branch).every((k) => OBJECT_KEYS.has(k))) return undefined;
    for (const [name, schema] of Object.entries((branch.properties ?? {}) as Record<string, Record<string, unknown>>)) {
      const before = properties[name] as Record<string, unknown> | undefined;
      if (before === undefined || JSON.stringify(before) === JSON.stringify(schema)) properties[name] = schema;
      else if (samePrimitive(before, schema)) properties[name] = { type: schema.type };
      else return undefined;
    }
  }
  return { type: 'object', properties, additionalProperties: false };
}

/** Both schemas are the same primitive type with only checks or a `const` besides: written alike. */
function samePrimitive(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const plain = (s: Record<string, unknown>) => typeof s.type === 'string' && PRIMITIVES.has(s.type) && Object.keys(s).every((k) => k === 'type' || k === 'const' || CHECK_ONLY.has(k));
  return plain(a) && plain(b) && a.type === b.type;
}

/**
 * A serializer compiler for one app, and the steps that compile its success serialisers not yet
 * compiled. Each is compiled on first use (most declared responses, the problem documents sent
 * pre-serialised, are never written through one, and compiling every one would slow the start);
 * `lugha serve` runs the steps during its warm-up, before /readyz answers 200, so no first answer of
 * a route compiles its serialiser (tens to hundreds of milliseconds each).
 */
export function createSerializerCompiler(): { compiler: FastifySerializerCompiler<unknown>; pendingSteps: () => Array<() => void> } {
  const pending = new Set<() => unknown>();
  const compiler: FastifySerializerCompiler<unknown> = (routeSchema) => {
    let serialize: ((data: unknown) => string) | undefined;
    const ready = () => {
      pending.delete(ready);
      return (serialize ??= compile(routeSchema));
    };
    if (/^2/.test(String(routeSchema.httpStatus))) pending.add(ready);
    return (data: unknown) => (serialize ?? ready())(data);
  };
  return { compiler, pendingSteps: () => [...pending].map((ready) => () => void ready()) };
}

function compile(routeSchema: Parameters<FastifySerializerCompiler<unknown>>[0]): (data: unknown) => string {
  const fallback = zodSerializerCompiler(routeSchema as SerializerCompiler) as (data: unknown) => string;
  const json = responseJsonSchema(routeSchema.schema);
  if (!json) return fallback;
  let compiled: (value: unknown) => string;
  try {
    compiled = fastJson(json as unknown as Parameters<typeof fastJson>[0]) as (value: unknown) => string;
  } catch {
    return fallback;
  }
  return (data: unknown) => {
    try {
      return compiled(data);
    } catch {
      return fallback(data);
    }
  };
}
