import fs from "node:fs";

/**
 * Summarises a V8 .cpuprofile (from `node --cpu-prof`): self time per area (Next.js, React, the
 * pg driver, drizzle, zod, our code, Node internals, GC, idle) and the heaviest functions.
 *   node --import tsx bench/profile-summary.ts file.cpuprofile [top] [skip start-up seconds]
 */
type Node = {
  id: number;
  children?: number[];
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
};
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[] };

const AREAS: [string, RegExp][] = [
  ["next.js", /node_modules\/next\//],
  ["react", /node_modules\/react(-dom)?\//],
  ["pg driver", /node_modules\/(pg|pg-protocol|pg-pool|pg-types)\//],
  ["pglite", /node_modules\/@electric-sql\//],
  ["drizzle", /node_modules\/drizzle-orm\//],
  ["zod", /node_modules\/zod\//],
  ["tsx loader", /node_modules\/(tsx|esbuild)\//],
  ["other packages", /node_modules\//],
  ["kassa (bundled by next)", /\.next\//],
  ["kassa", /\/(lib|app|server\.ts|bench)\//],
  ["node internals", /^node:|^internal\//],
];

const projectUrl = `file://${process.cwd()}/`;
const isKassa = (url: string) =>
  /\.next\/server\/chunks\/(ssr\/)?(lib|app)_/.test(url) ||
  (url.startsWith(projectUrl) && !url.includes("/node_modules/") && !url.includes("/.next/"));

/** Self time per sample id, leaving out the first `skipSeconds` of the profile (start-up). */
function selfTimes(profile: Profile, skipSeconds: number) {
  const selfMicros = new Map<number, number>();
  let elapsed = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    elapsed += delta;
    if (elapsed < skipSeconds * 1e6) return;
    selfMicros.set(id, (selfMicros.get(id) ?? 0) + delta);
  });
  return selfMicros;
}

export function summarise(profile: Profile, top = 25, skipSeconds = 0) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfMicros = selfTimes(profile, skipSeconds);
  const total = [...selfMicros.values()].reduce((a, b) => a + b, 0);
  const areas = new Map<string, number>();
  const functions = new Map<string, number>();
  for (const [id, micros] of selfMicros) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const special = ["(idle)", "(garbage collector)", "(program)"].includes(functionName);
    const area = special
      ? functionName
      : (AREAS.find(([, pattern]) => pattern.test(url))?.[0] ?? (url ? "other" : "native/builtin"));
    areas.set(area, (areas.get(area) ?? 0) + micros);
    const name = `${functionName || "(anonymous)"} ${url.replace(/^.*node_modules\//, "")}:${lineNumber + 1}`;
    functions.set(name, (functions.get(name) ?? 0) + micros);
  }
  // Inclusive view: a sample belongs to "our work" when any frame on its stack is Kassa code;
  // otherwise to the framework when any frame is Next.js; otherwise to Node itself.
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const stacks = new Map<string, number>();
  const ownedFunctions = new Map<string, number>();
  for (const [id, micros] of selfMicros) {
    const self = byId.get(id)!.callFrame.functionName;
    let owner = ["(idle)", "(garbage collector)", "(program)"].includes(self)
      ? self
      : "node.js (http, streams, timers)";
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const url = byId.get(at)!.callFrame.url;
      if (isKassa(url)) {
        owner = "Kassa handler and everything it calls (db driver, crypto, zod)";
        break;
      }
      if (/node_modules\/next\//.test(url)) owner = "Next.js request pipeline (excluding our handler)";
    }
    stacks.set(owner, (stacks.get(owner) ?? 0) + micros);
    const frame = byId.get(id)!.callFrame;
    const key = `${owner.split(" ")[0]} ← ${frame.functionName || "(anonymous)"} ${frame.url.replace(/^.*node_modules\//, "").replace(/^.*\.next\/server\/chunks\//, ".next/")}`;
    ownedFunctions.set(key, (ownedFunctions.get(key) ?? 0) + micros);
  }
  const pct = (micros: number) => `${((100 * micros) / total).toFixed(1)}%`;
  const sorted = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1]);
  return {
    totalMs: Math.round(total / 1000),
    stacks: sorted(stacks).map(([name, micros]) => `${pct(micros).padStart(6)}  ${name}`),
    areas: sorted(areas).map(([name, micros]) => `${pct(micros).padStart(6)}  ${name}`),
    ownedFunctions: sorted(ownedFunctions)
      .slice(0, top)
      .map(([name, micros]) => `${pct(micros).padStart(6)}  ${name}`),
    functions: sorted(functions)
      .slice(0, top)
      .map(([name, micros]) => `${pct(micros).padStart(6)}  ${name}`),
  };
}

if (process.argv[1]?.endsWith("profile-summary.ts")) {
  const [file, top, skip] = process.argv.slice(2);
  if (!file) throw new Error("usage: profile-summary.ts file.cpuprofile [top]");
  const summary = summarise(JSON.parse(fs.readFileSync(file, "utf8")), Number(top ?? 25), Number(skip ?? 0));
  console.log(`sampled ${summary.totalMs} ms\n\ninclusive, by owner:\n${summary.stacks.join("\n")}`);
  console.log(`\nheaviest functions (self time, by owner):\n${summary.ownedFunctions.join("\n")}`);
}
