import { describe, expect, it } from "vitest";
import { loginPathFor, safeReturnPath } from "@/lib/auth/return-path";

describe("safeReturnPath", () => {
  it("keeps dashboard paths on this server, with their query and fragment", () => {
    expect(safeReturnPath("/dashboard")).toBe("/dashboard");
    expect(safeReturnPath("/dashboard/invoices/42?tab=1#timeline")).toBe(
      "/dashboard/invoices/42?tab=1#timeline",
    );
    expect(safeReturnPath("/onboarding")).toBe("/onboarding");
  });

  it("refuses every way of naming another host", () => {
    for (const attempt of [
      "//evil.example",
      "//evil.example/dashboard",
      "/\\evil.example",
      "\\\\evil.example",
      "/\t/evil.example",
      "/\n/evil.example",
      "https://evil.example/dashboard",
      "javascript:alert(1)",
      "dashboard",
      "",
    ]) {
      expect(safeReturnPath(attempt), attempt).toBeUndefined();
    }
  });

  it("refuses pages outside the signed-in app, and lookalike prefixes", () => {
    expect(safeReturnPath("/api/dashboard/api-keys")).toBeUndefined();
    expect(safeReturnPath("/dashboardx")).toBeUndefined();
    expect(safeReturnPath("/login")).toBeUndefined();
    // Dot segments are resolved before the check, as the browser would resolve them.
    expect(safeReturnPath("/dashboard/../api/v2/ping")).toBeUndefined();
    expect(safeReturnPath(["/dashboard"])).toBeUndefined();
  });
});

describe("loginPathFor", () => {
  it("carries the page back through the sign-in link, or nothing when there is nothing to return to", () => {
    expect(loginPathFor("/dashboard/keys")).toBe("/login?next=%2Fdashboard%2Fkeys");
    expect(loginPathFor("/dashboard")).toBe("/login");
    expect(loginPathFor(null)).toBe("/login");
    expect(loginPathFor("//evil.example")).toBe("/login");
  });
});
