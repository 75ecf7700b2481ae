// A process that applies KASSA_HEAP_GROWTH_PERCENT=<argv[2]> as the server does, keeps a live set of
// about 35 MB, then allocates about 280 MB in batches, each kept while the next 63 are made (so that
// many outlive two scavenges and reach the old generation) and then dropped; it prints how many full
// (major) collections that took.
import { constants, type NodeGCPerformanceDetail, PerformanceObserver } from "node:perf_hooks";
import { applyHeapGrowthSetting } from "@/server/heap-growth";

applyHeapGrowthSetting({ KASSA_HEAP_GROWTH_PERCENT: process.argv[2] });
let majors = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries())
    if (
      (entry as unknown as { detail: NodeGCPerformanceDetail }).detail.kind ===
      constants.NODE_PERFORMANCE_GC_MAJOR
    )
      majors++;
}).observe({ entryTypes: ["gc"] });

const batch = (n: number) => Array.from({ length: 10_000 }, (_, i) => ({ i, n }));
const live = Array.from({ length: 100 }, (_, n) => batch(n));
const recent: unknown[] = new Array(64);
for (let n = 0; n < 800; n++) recent[n % recent.length] = batch(n);
// GC entries reach observers on a later turn of the event loop.
setTimeout(() => console.log(JSON.stringify({ majors, live: live.length })), 50);
