import { execFileSync } from "node:child_process";
import { afterEach, describe, expect, it, vi } from "vitest";
import { loadConfig } from "@/lib/config";
import { applyHeapGrowthSetting } from "@/server/heap-growth";
import { TSX_FLAGS } from "../../scripts/tsx-flags.mjs";

/** Full collections a child process needs for the same garbage with the setting at `percent`. */
function majorCollections(percent: string): number {
  const out = execFileSync(process.execPath, [...TSX_FLAGS, "tests/support/heap-growth-child.ts", percent], {
    encoding: "utf8",
  });
  return (JSON.parse(out.trim()) as { majors: number }).majors;
}

describe("KASSA_HEAP_GROWTH_PERCENT", () => {
  afterEach(() => vi.restoreAllMocks());

  it("reaches V8: less growth allowed, more full collections for the same garbage", () => {
    const tight = majorCollections("10");
    const loose = majorCollections("400");
    // Measured: 11 or 12 against 2 on this machine kind. A flag V8 did not take would make them equal.
    expect(tight).toBeGreaterThanOrEqual(3 * Math.max(loose, 1));
  });

  it.each(["abc", "", "5", "401", "1e2", "050", "-10", "100.5"])(
    "refuses %j at start, naming the variable, as the configuration does",
    (value) => {
      const exit = vi.spyOn(process, "exit").mockImplementation((() => undefined) as never);
      const error = vi.spyOn(console, "error").mockImplementation(() => {});
      applyHeapGrowthSetting({ KASSA_HEAP_GROWTH_PERCENT: value });
      expect(exit).toHaveBeenCalledWith(1);
      expect(String(error.mock.calls[0]?.[0])).toContain(`KASSA_HEAP_GROWTH_PERCENT: must be 0`);
      expect(() => loadConfig({ KASSA_HEAP_GROWTH_PERCENT: value } as unknown as NodeJS.ProcessEnv)).toThrow(
        "KASSA_HEAP_GROWTH_PERCENT",
      );
    },
  );

  it.each(["0", "10", "100", "400"])("accepts %j in the configuration", (value) => {
    const env = { KASSA_HEAP_GROWTH_PERCENT: value } as unknown as NodeJS.ProcessEnv;
    expect(() => loadConfig(env)).not.toThrow();
  });
});
