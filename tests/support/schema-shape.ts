import { Column, is, SQL, sql } from "drizzle-orm";
import { getTableConfig, type IndexedColumn, type PgColumn, PgTable } from "drizzle-orm/pg-core";
import { type Executor, queryRows } from "@/lib/db/client";

/**
 * A table's shape as PostgreSQL reports it, in one comparable form: what lib/db/schema declares
 * (read from Drizzle's table config) and what the migrations built (read from the catalogs) should be
 * equal, so a migration that forgets a column, a default, a NOT NULL, a key or an index fails a test
 * that names it. Expressions (defaults, checks, index keys and predicates) are compared after
 * `normalize`, which removes what PostgreSQL adds when it stores them (casts, parentheses, quoting).
 */
export type TableShape = {
  columns: Record<string, { type: string; isNotNull: boolean; default: string | null }>;
  primaryKey: string[];
  uniques: string[];
  foreignKeys: string[];
  checks: Record<string, string>;
  indexes: Record<string, { isUnique: boolean; keys: string[]; where: string | null }>;
};
export type SchemaShape = Record<string, TableShape>;

/**
 * Lower case, no casts, no parentheses, no quotes, no spaces. PostgreSQL stores LIKE as `~~` and
 * `x in ('a', 'b')` as `x = any (array['a', 'b'])`; both are read back as written.
 */
export function normalize(expression: string): string {
  return (
    expression
      .toLowerCase()
      .replace(/::(?:timestamp with time zone|character varying|double precision|[a-z_]+)(\[\])?/g, "")
      // PostgreSQL keeps a negative number's default as a quoted literal ('-1'::integer).
      .replace(/'(-?\d+(?:\.\d+)?)'/g, "$1")
      .replace(/~~/g, " like ")
      .replace(/=\s*any\s*\(array\[([^\]]*)\]\)/g, " in ($1)")
      .replace(/[()"\s]/g, "")
  );
}

/** SQL written in the schema, with its column references as bare names. */
function renderSql(value: SQL): string {
  return value.queryChunks
    .map((chunk) => {
      if (is(chunk, Column)) return chunk.name;
      if (is(chunk, SQL)) return renderSql(chunk);
      if (typeof chunk === "object" && chunk !== null && "value" in chunk) {
        const inner = (chunk as { value: unknown }).value;
        return Array.isArray(inner) ? inner.join("") : String(inner);
      }
      throw new Error(`the schema shape cannot render ${String(chunk)}`);
    })
    .join("");
}

function renderDefault(column: PgColumn): string | null {
  const type = column.getSQLType();
  if (type === "bigserial" || type === "serial") return "nextval";
  if (!column.hasDefault || column.default === undefined) return null;
  const value = column.default;
  if (is(value, SQL)) return normalize(renderSql(value));
  if (typeof value === "string") return normalize(`'${value}'`);
  if (typeof value === "object") return normalize(`'${JSON.stringify(value)}'`);
  return normalize(String(value));
}

const normalizeType = (type: string) =>
  ({ bigserial: "bigint", serial: "integer" })[type] ?? type.replace(/,\s+/g, ",");

const ACTIONS: Record<string, string> = {
  a: "no action",
  r: "restrict",
  c: "cascade",
  n: "set null",
  d: "set default",
};

const foreignKey = (input: {
  columns: string[];
  table: string;
  foreignColumns: string[];
  onDelete: string;
}) =>
  `(${input.columns.join(", ")}) → ${input.table}(${input.foreignColumns.join(", ")}) on delete ${input.onDelete}`;

export function declaredShape(schema: Record<string, unknown>): SchemaShape {
  const shape: SchemaShape = {};
  for (const value of Object.values(schema)) {
    if (!is(value, PgTable)) continue;
    const config = getTableConfig(value);
    const columns: TableShape["columns"] = {};
    for (const column of config.columns)
      columns[column.name] = {
        type: normalizeType(column.getSQLType()),
        isNotNull: column.notNull || column.primary,
        default: renderDefault(column),
      };
    const primaryKey =
      config.primaryKeys[0]?.columns.map((c) => c.name) ??
      config.columns.filter((c) => c.primary).map((c) => c.name);
    const uniques = [
      ...config.columns.filter((c) => c.isUnique).map((c) => c.name),
      ...config.uniqueConstraints.map((u) => u.columns.map((c) => c.name).join(", ")),
    ];
    const foreignKeys = config.foreignKeys.map((fk) => {
      const reference = fk.reference();
      return foreignKey({
        columns: reference.columns.map((c) => c.name),
        table: getTableConfig(reference.foreignTable).name,
        foreignColumns: reference.foreignColumns.map((c) => c.name),
        onDelete: fk.onDelete ?? "no action",
      });
    });
    const checks = Object.fromEntries(config.checks.map((c) => [c.name, normalize(renderSql(c.value))]));
    const indexes = Object.fromEntries(
      config.indexes.map((index) => [
        index.config.name!,
        {
          isUnique: index.config.unique,
          keys: index.config.columns.map((key) =>
            is(key, SQL) ? normalize(renderSql(key)) : (key as IndexedColumn).name!,
          ),
          where: index.config.where ? normalize(renderSql(index.config.where)) : null,
        },
      ]),
    );
    shape[config.name] = {
      columns,
      primaryKey,
      uniques: uniques.sort(),
      foreignKeys: foreignKeys.sort(),
      checks,
      indexes,
    };
  }
  return shape;
}

/** The same shape, read from the catalogs of a migrated database (schema public). */
export async function databaseShape(db: Executor): Promise<SchemaShape> {
  const shape: SchemaShape = {};
  const table = (name: string) => {
    shape[name] ??= { columns: {}, primaryKey: [], uniques: [], foreignKeys: [], checks: {}, indexes: {} };
    return shape[name];
  };
  const columns = await queryRows<{
    table: string;
    name: string;
    type: string;
    is_not_null: boolean;
    default: string | null;
  }>(
    db,
    sql`select c.table_name as table, c.column_name as name, c.is_nullable = 'NO' as is_not_null,
               c.column_default as default,
               format_type(a.atttypid, a.atttypmod) as type
        from information_schema.columns c
        join pg_attribute a on a.attrelid = format('public.%I', c.table_name)::regclass
                           and a.attname = c.column_name
        where c.table_schema = 'public'
        order by c.table_name, c.ordinal_position`,
  );
  for (const column of columns)
    table(column.table).columns[column.name] = {
      type: column.type,
      isNotNull: column.is_not_null,
      default:
        column.default === null
          ? null
          : column.default.startsWith("nextval(")
            ? "nextval"
            : normalize(column.default),
    };
  const constraints = await queryRows<{
    table: string;
    name: string;
    kind: string;
    columns: string[];
    foreign_table: string | null;
    foreign_columns: string[] | null;
    on_delete: string;
    definition: string;
  }>(
    db,
    sql`select r.relname as table, con.conname as name, con.contype as kind,
               array(select attname from unnest(con.conkey) with ordinality k(n, i)
                     join pg_attribute on attrelid = con.conrelid and attnum = k.n order by k.i)::text[] as columns,
               f.relname as foreign_table,
               array(select attname from unnest(con.confkey) with ordinality k(n, i)
                     join pg_attribute on attrelid = con.confrelid and attnum = k.n order by k.i)::text[]
                 as foreign_columns,
               con.confdeltype as on_delete, pg_get_constraintdef(con.oid) as definition
        from pg_constraint con
        join pg_class r on r.oid = con.conrelid
        join pg_namespace n on n.oid = r.relnamespace
        left join pg_class f on f.oid = con.confrelid
        where n.nspname = 'public' and con.contype in ('p', 'u', 'f', 'c')
        order by r.relname, con.conname`,
  );
  for (const constraint of constraints) {
    const shapeOf = table(constraint.table);
    if (constraint.kind === "p") shapeOf.primaryKey = constraint.columns;
    if (constraint.kind === "u") shapeOf.uniques.push(constraint.columns.join(", "));
    if (constraint.kind === "f")
      shapeOf.foreignKeys.push(
        foreignKey({
          columns: constraint.columns,
          table: constraint.foreign_table!,
          foreignColumns: constraint.foreign_columns!,
          onDelete: ACTIONS[constraint.on_delete]!,
        }),
      );
    if (constraint.kind === "c")
      shapeOf.checks[constraint.name] = normalize(constraint.definition.replace(/^CHECK /, ""));
  }
  const indexes = await queryRows<{
    table: string;
    name: string;
    is_unique: boolean;
    keys: string[];
    where: string | null;
  }>(
    db,
    sql`select r.relname as table, ir.relname as name, i.indisunique as is_unique,
               array(select pg_get_indexdef(i.indexrelid, k, true)
                     from generate_series(1, i.indnkeyatts) k order by k)::text[] as keys,
               pg_get_expr(i.indpred, i.indrelid) as where
        from pg_index i
        join pg_class r on r.oid = i.indrelid
        join pg_class ir on ir.oid = i.indexrelid
        join pg_namespace n on n.oid = r.relnamespace
        where n.nspname = 'public'
          and not exists (select 1 from pg_constraint con
                          where con.conindid = i.indexrelid and con.conrelid = i.indrelid and con.contype in ('p', 'u', 'x'))
        order by r.relname, ir.relname`,
  );
  for (const index of indexes)
    table(index.table).indexes[index.name] = {
      isUnique: index.is_unique,
      keys: index.keys.map(normalize),
      where: index.where === null ? null : normalize(index.where),
    };
  for (const shapeOf of Object.values(shape)) {
    shapeOf.uniques.sort();
    shapeOf.foreignKeys.sort();
  }
  return shape;
}
