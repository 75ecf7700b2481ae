import { afterEach, describe, expect, it, vi } from "vitest";
import { applySourceMapSetting } from "@/server/source-maps";

describe("KASSA_SOURCE_MAPS", () => {
  const before = process.sourceMapsEnabled;
  afterEach(() => {
    process.setSourceMapsEnabled(before);
    vi.restoreAllMocks();
  });

  it("turns Node's source maps off in production unless asked, and on in development", () => {
    process.setSourceMapsEnabled(true);
    applySourceMapSetting({}, false);
    expect(process.sourceMapsEnabled).toBe(false);
    applySourceMapSetting({}, true);
    expect(process.sourceMapsEnabled).toBe(true);
    applySourceMapSetting({ KASSA_SOURCE_MAPS: "off" }, true);
    expect(process.sourceMapsEnabled).toBe(false);
    applySourceMapSetting({ KASSA_SOURCE_MAPS: "on" }, false);
    expect(process.sourceMapsEnabled).toBe(true);
  });

  it("refuses to start on another value, naming the variable", () => {
    const exit = vi.spyOn(process, "exit").mockImplementation((() => undefined) as never);
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    applySourceMapSetting({ KASSA_SOURCE_MAPS: "yes" }, false);
    expect(exit).toHaveBeenCalledWith(1);
    expect(String(error.mock.calls[0]?.[0])).toContain('KASSA_SOURCE_MAPS: must be on or off, not "yes"');
  });
});
