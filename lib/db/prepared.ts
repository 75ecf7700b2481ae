import "server-only";

import type { Executor } from "./client";

const built = new WeakMap<Executor, Map<string, unknown>>();
/** Each name's builder, as source text: two builders under one name would share one query, silently. */
const builders = new Map<string, string>();

/**
 * A Drizzle query built once per database handle and run with its placeholders bound
 * (`sql.placeholder`), for the queries behind every API request. Drizzle turns a query's objects into
 * SQL text on every call, which cost transactions/info more CPU than anything else in the engine
 * (docs/BENCHMARKS.md, "Lookups built once"); a prepared query binds its values only. On PostgreSQL
 * it is also a named prepared statement, parsed and planned once per connection: `build` gets the name
 * to prepare under. A name must belong to one query text: PostgreSQL refuses a second text under a name
 * a connection already prepared.
 * Inside a transaction the query is built for that transaction's executor, which lives as long as it.
 */
export function prepared<T>(db: Executor, name: string, build: (db: Executor, name: string) => T): T {
  let queries = built.get(db);
  if (!queries) {
    queries = new Map();
    built.set(db, queries);
  }
  let query = queries.get(name) as T | undefined;
  if (query === undefined) {
    const source = build.toString();
    const known = builders.get(name);
    if (known === undefined) builders.set(name, source);
    else if (known !== source) throw new Error(`two different queries are prepared under the name "${name}"`);
    query = build(db, name);
    queries.set(name, query);
  }
  return query;
}
