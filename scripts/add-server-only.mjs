/**
 * Puts `import "server-only";` at the top of every server module of lib/ that lacks it (which those are:
 * scripts/module-graph.mjs). Safe to re-run. A marked module a client component reaches is reported, never
 * unmarked: drop the client's import, or unmark the module by hand if it is not server code.
 *   node scripts/add-server-only.mjs            add the marker where it is missing
 *   node scripts/add-server-only.mjs --check    change nothing; exit 1 if anything is off
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { importChain, SERVER_ONLY_LINE, serverOnlyPlan } from "./module-graph.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const isCheck = process.argv.includes("--check");
const plan = serverOnlyPlan(root);

for (const file of plan.missingMarker) {
  if (isCheck) {
    console.log(`missing the marker: ${path.relative(root, file)}`);
    continue;
  }
  const text = fs.readFileSync(file, "utf8");
  // Its own line first, then a blank line: Biome keeps a bare import apart from the sorted ones.
  fs.writeFileSync(file, `${SERVER_ONLY_LINE}\n\n${text}`);
  console.log(`marked: ${path.relative(root, file)}`);
}
for (const file of plan.serverCodeInClient) {
  console.error(`client code imports a server module: ${importChain(root, plan.clientReachable, file)}`);
}
console.log(
  `${plan.serverModules.length} server modules in lib/; ${plan.missingMarker.length} ${isCheck ? "lack" : "were missing"} the marker`,
);
if (plan.serverCodeInClient.length > 0 || (isCheck && plan.missingMarker.length > 0)) process.exitCode = 1;
