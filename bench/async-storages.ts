import { AsyncLocalStorage } from "node:async_hooks";
import { spawnSync } from "node:child_process";
import { SharedAsyncLocalStorage } from "@/server/shared-async-local-storage";
import { TSX_FLAGS } from "../scripts/tsx-flags.mjs";

/**
 * What a promise costs with request storages switched on (docs/BENCHMARKS.md, "One request context
 * for the whole process"): `npm run bench:async-storages` runs each case in a process of
 * its own (a storage, once on, stays on for the process) and prints CPU µs per request of 41 promises.
 */
const CASES = ["none", "one", "six", "six shared"] as const;
type Case = (typeof CASES)[number];
const WARM_UP = 20_000;
const MEASURED = 100_000;
const BATCH = 10_000;

async function measure(which: Case): Promise<number> {
  const count = which === "none" ? 0 : which === "one" ? 1 : 6;
  const Storage = (
    which === "six shared" ? SharedAsyncLocalStorage : AsyncLocalStorage
  ) as typeof AsyncLocalStorage;
  const storages = Array.from({ length: count }, () => new Storage<number>());
  const step = async (n: number) => {
    await null;
    return n + 1;
  };
  // 41 promises: 20 async calls (two each) and one for the turn of the event loop.
  const request = async () => {
    let n = 0;
    for (let i = 0; i < 20; i++) n = await step(n);
    await new Promise((resolve) => setImmediate(resolve));
  };
  const within = (i: number): Promise<void> =>
    i === storages.length ? request() : storages[i]!.run(i, () => within(i + 1));
  const batch = (size: number) => Promise.all(Array.from({ length: size }, () => within(0)));
  await batch(WARM_UP);
  const before = process.cpuUsage();
  for (let done = 0; done < MEASURED; done += BATCH) await batch(BATCH);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / MEASURED;
}

const which = process.argv[2] as Case | undefined;
if (which) {
  console.log((await measure(which)).toFixed(1));
} else {
  console.log("| storages switched on | CPU µs per request of 41 promises |\n|---|---:|");
  for (const each of CASES) {
    const child = spawnSync(process.execPath, [...TSX_FLAGS, import.meta.filename, each], {
      encoding: "utf8",
    });
    if (child.status !== 0) throw new Error(`${each}: ${child.stderr}`);
    console.log(`| ${each} | ${child.stdout.trim()} |`);
  }
}
