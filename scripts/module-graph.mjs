/**
 * Which of our modules are server code: every module of lib/ that no "use client" file reaches through
 * value imports (type-only imports bring nothing into the browser), except those drizzle-kit loads (the
 * schema and what it imports). Server modules start with `import "server-only";`. Used by
 * scripts/add-server-only.mjs and tests/unit/server-only.test.ts. Why: docs/decisions/server-only-marker.md.
 */
import fs from "node:fs";
import path from "node:path";

export const SERVER_ONLY_LINE = 'import "server-only";';

const SOURCE_DIRS = ["app", "components", "lib"];
const ENGINE_DIR = "lib";
/** Where drizzle-kit's configuration names the schema it loads (see above). */
const DRIZZLE_CONFIG = "drizzle.config.ts";
const EXTENSIONS = [".ts", ".tsx", ".mts", ".mjs", ".js"];

const USE_CLIENT = /^(?:\s|\/\/[^\n]*\n|\/\*[\s\S]*?\*\/)*["']use client["']/;
const MARKER = /^import ["']server-only["'];?\s*$/m;
/**
 * `import x from "y"`, `import "y"`, `export * from "y"`, `import("y")`. Group 1 marks `import type`,
 * group 2 is the import clause, groups 3 and 4 the specifier.
 */
const IMPORT =
  /(?:^|[\s;}])(?:import|export)\s+(type\s+)?(?:([^"'`;]*?)\sfrom\s*)?["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g;
/** `{ type A, type B }`: every name inline-typed, so the compiler erases the whole import. */
const ALL_INLINE_TYPES =
  /^\{\s*type\s+[\w$]+(?:\s+as\s+[\w$]+)?(?:\s*,\s*type\s+[\w$]+(?:\s+as\s+[\w$]+)?)*\s*,?\s*\}$/;

function stripComments(text) {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
}

function listFiles(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : listFiles(full);
    return /\.(ts|tsx|mts)$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [full] : [];
  });
}

function resolveLocal(root, from, specifier) {
  let base;
  if (specifier.startsWith("@/")) base = path.join(root, specifier.slice(2));
  else if (specifier.startsWith(".")) base = path.resolve(path.dirname(from), specifier);
  else return undefined; // a package: not ours
  const candidates = [
    base,
    ...EXTENSIONS.map((extension) => base + extension),
    ...EXTENSIONS.map((extension) => path.join(base, `index${extension}`)),
  ];
  return candidates.find((candidate) => fs.existsSync(candidate) && fs.statSync(candidate).isFile());
}

/** The local modules a file imports for their values (type-only imports left out). */
export function valueImports(root, file) {
  const text = stripComments(fs.readFileSync(file, "utf8"));
  const found = [];
  for (const match of text.matchAll(IMPORT)) {
    if (match[1] || ALL_INLINE_TYPES.test(match[2]?.trim() ?? "")) continue;
    const resolved = resolveLocal(root, file, match[3] ?? match[4]);
    if (resolved) found.push(resolved);
  }
  return found;
}

/** Every module reachable from `entries`, with the module that first imported it (for messages). */
export function reachableFrom(root, entries) {
  const importedBy = new Map(entries.map((entry) => [entry, null]));
  const queue = [...entries];
  while (queue.length > 0) {
    const file = queue.shift();
    for (const imported of valueImports(root, file)) {
      if (importedBy.has(imported)) continue;
      importedBy.set(imported, file);
      queue.push(imported);
    }
  }
  return importedBy;
}

/** The schema files drizzle.config.ts names (`schema: "./lib/db/schema/index.ts"` or a list). */
function drizzleSchemaEntries(root) {
  const config = path.join(root, DRIZZLE_CONFIG);
  if (!fs.existsSync(config)) return [];
  const schema = /schema:\s*(\[[^\]]*\]|["'][^"']+["'])/.exec(fs.readFileSync(config, "utf8"))?.[1] ?? "";
  return [...schema.matchAll(/["']([^"']+)["']/g)]
    .map((match) => path.join(root, match[1]))
    .filter((file) => fs.existsSync(file));
}

export const isClientEntry = (file) => USE_CLIENT.test(fs.readFileSync(file, "utf8"));
export const hasServerOnlyMarker = (file) => MARKER.test(stripComments(fs.readFileSync(file, "utf8")));

/**
 * The whole picture for a source tree: `clientReachable` (module → who imports it), the engine's
 * `serverModules`, and the findings the test reports: server modules without the marker, and
 * client-reachable modules with it (a client component importing server code).
 */
export function serverOnlyPlan(root) {
  const sources = SOURCE_DIRS.flatMap((dir) => listFiles(path.join(root, dir)));
  const clientEntries = sources.filter(isClientEntry);
  const clientReachable = reachableFrom(root, clientEntries);
  const toolReachable = reachableFrom(root, drizzleSchemaEntries(root));
  const engine = path.join(root, ENGINE_DIR) + path.sep;
  const serverModules = sources.filter(
    (file) => file.startsWith(engine) && !clientReachable.has(file) && !toolReachable.has(file),
  );
  return {
    clientReachable,
    serverModules,
    missingMarker: serverModules.filter((file) => !hasServerOnlyMarker(file)),
    serverCodeInClient: [...clientReachable.keys()].filter(hasServerOnlyMarker),
  };
}

/** How a client entry reaches `file`, as "entry -> ... -> file" with paths relative to `root`. */
export function importChain(root, clientReachable, file) {
  const chain = [];
  for (let current = file; current; current = clientReachable.get(current)) chain.unshift(current);
  return chain.map((step) => path.relative(root, step)).join(" -> ");
}
