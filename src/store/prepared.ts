/**
 * Compile-once queries for the request path. Kysely builds and compiles a query
 * on every call, which costs as much as running a small SQLite query; a prepared
 * query is compiled once with placeholder values, and each call substitutes the
 * real values by position. The SQL stays Kysely's, in the store's own dialect.
 */
import type { Compilable, CompiledQuery, Kysely, QueryResult } from 'kysely';

/** Marks a parameter inside `build`; replaced by the named argument at each call. */
export type Placeholders<P> = { readonly [K in keyof P]: P[K] };

export interface PreparedQuery<P, R> {
  execute(args: P): Promise<QueryResult<R>>;
}

export function prepareQuery<P extends Record<string, unknown>, R>(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a query builder of either store's database type
  db: Kysely<any>,
  names: ReadonlyArray<keyof P & string>,
  build: (placeholders: Placeholders<P>) => Compilable<R>,
): PreparedQuery<P, R> {
  const markers = Object.fromEntries(names.map((name) => [name, `\u0000lugha-param:${name}`])) as unknown as Placeholders<P>;
  const compiled = build(markers).compile();
  const slots = compiled.parameters.map((value) => {
    const name = names.find((n) => (markers as Record<string, unknown>)[n] === value);
    return name === undefined ? { fixed: value } : { name };
  });
  for (const name of names) {
    if (!slots.some((s) => 'name' in s && s.name === name)) throw new Error(`prepared query never uses parameter "${name}"`);
  }
  return {
    execute(args) {
      const parameters = slots.map((s) => ('name' in s ? args[s.name as keyof P] : s.fixed));
      return db.executeQuery<R>({ ...compiled, parameters } as CompiledQuery<R>);
    },
  };
}
