import { describe, expect, it } from "vitest";
import { formatDateTime } from "@/lib/format-date-time";

describe("formatDateTime", () => {
  it("writes the UTC clock to the second with its label, from a Date or an ISO string", () => {
    // 2026-03-29 01:30:05 UTC is 03:30:05 in Berlin (summer time): the browser's zone must not leak in.
    const moment = new Date(Date.UTC(2026, 2, 29, 1, 30, 5, 999));
    expect(formatDateTime(moment)).toBe("2026-03-29 01:30:05 UTC");
    expect(formatDateTime("2026-03-29T03:30:05+02:00")).toBe("2026-03-29 01:30:05 UTC");
  });

  it("shows a dash, not 'Invalid Date', for a value that is not a moment", () => {
    expect(formatDateTime("not a date")).toBe("—");
  });
});
