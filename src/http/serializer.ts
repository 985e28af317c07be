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
    return simplifyNullable(z.toJSONSchema(zod, { io: 'output', target: 'draft-7', unrepresentable: 'throw', reused: 'inline', cycles: 'ref' })) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/**
 * `anyOf: [S, {type: "null"}]` with a plain-typed S becomes `type: [S.type, "null"]`: the same
 * values, and fast-json-stringify writes it directly instead of testing each branch per value.
 */
function simplifyNullable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(simplifyNullable);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) out[k] = simplifyNullable(v);
  const anyOf = out.anyOf as Array<Record<string, unknown>> | undefined;
  if (Array.isArray(anyOf) && anyOf.length === 2 && Object.keys(out).every((k) => k === 'anyOf' || k === 'description' || k === 'default')) {
    const nullIndex = anyOf.findIndex((b) => b.type === 'null' && Object.keys(b).length === 1);
    const other = anyOf[1 - nullIndex];
    if (nullIndex >= 0 && other && typeof other.type === 'string' && ['string', 'number', 'integer', 'boolean', 'object', 'array'].includes(other.type)) {
      const { anyOf: _, ...rest } = out;
      return { ...other, ...rest, type: [other.type, 'null'] };
    }
  }
  return out;
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
