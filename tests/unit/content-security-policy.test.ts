import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, proxy } from "@/proxy";

/** The page policy of proxy.ts; e2e/ui/csp.spec.ts walks every page under it in Chromium. */
describe("the pages' Content-Security-Policy", () => {
  it("lets only scripts with the nonce run in production: no eval, no inline code", () => {
    const policy = contentSecurityPolicy("abc", false);
    expect(policy).toContain("script-src 'self' 'nonce-abc' 'strict-dynamic';");
    expect(policy).toContain("style-src 'self' 'nonce-abc';");
    expect(policy).not.toContain("unsafe");
    for (const directive of [
      "object-src 'none'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
      "form-action 'self'",
    ])
      expect(policy).toContain(directive);
  });

  it("relaxes only what the development server needs", () => {
    const policy = contentSecurityPolicy("abc", true);
    expect(policy).toContain("script-src 'self' 'nonce-abc' 'strict-dynamic' 'unsafe-eval';");
    expect(policy).toContain("style-src 'self' 'unsafe-inline';");
  });

  it("gives each request its own nonce, the same in the policy Next renders with and the one the browser gets", () => {
    const nonces = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const response = proxy(new NextRequest("http://kassa.test/dashboard"));
      const sent = response.headers.get("content-security-policy")!;
      // NextResponse.next({ request: { headers } }) carries the request's new headers this way.
      expect(response.headers.get("x-middleware-request-content-security-policy")).toBe(sent);
      nonces.add(/'nonce-([A-Za-z0-9+/]{22}==)'/.exec(sent)![1]!);
    }
    expect(nonces.size).toBe(5);
  });
});
