import { describe, expect, it } from "vitest";
import { needsSecureCookies } from "@/lib/auth/needs-secure-cookies";

describe("the session cookie's Secure flag", () => {
  it("is on in production mode, whatever the URL says", () => {
    expect(needsSecureCookies({ mode: "production" })).toBe(true);
    expect(needsSecureCookies({ mode: "production", publicUrl: "http://localhost:3000" })).toBe(true);
    expect(needsSecureCookies({ mode: "production", publicUrl: "https://pay.example.com" })).toBe(true);
  });

  it("is on for every https site, localhost included", () => {
    expect(needsSecureCookies({ mode: "sandbox", publicUrl: "https://sandbox.example.com" })).toBe(true);
    expect(needsSecureCookies({ mode: "sandbox", publicUrl: "https://localhost:3443" })).toBe(true);
  });

  it("is on for a sandbox served over plain http anywhere but localhost", () => {
    expect(needsSecureCookies({ mode: "sandbox", publicUrl: "http://sandbox.example.com" })).toBe(true);
    expect(needsSecureCookies({ mode: "sandbox", publicUrl: "http://10.0.0.5:3000" })).toBe(true);
  });

  it("is off only for a sandbox on plain-http localhost, or with no URL (http://localhost:3000)", () => {
    expect(needsSecureCookies({ mode: "sandbox" })).toBe(false);
    expect(needsSecureCookies({ mode: "sandbox", publicUrl: "http://localhost:3000" })).toBe(false);
    expect(needsSecureCookies({ mode: "sandbox", publicUrl: "http://127.0.0.1:3000" })).toBe(false);
    expect(needsSecureCookies({ mode: "sandbox", publicUrl: "http://[::1]:3000" })).toBe(false);
  });
});
