import { expect, test } from "../fixtures";

/**
 * The headers every answer carries (server/response-headers.json, proxy.ts), checked on the wire
 * for each kind of answer: pages (a policy with a nonce), route handlers of every face (nothing may
 * run, load or frame), and the checkout (no Referer, not indexed). Runs in the `api` and `api-next`
 * projects, so the /api/v2 fast path and Next.js's pipeline are both held to it.
 */

const USUAL = {
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "cross-origin-opener-policy": "same-origin",
  "permissions-policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
};

/** A page's policy, directive by directive. */
function directives(policy: string): Map<string, string> {
  return new Map(
    policy
      .split(";")
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => {
        const [name, ...values] = d.split(/\s+/);
        return [name!, values.join(" ")] as const;
      }),
  );
}

test("pages: a strict policy with a fresh nonce, and the usual headers", async ({ request }) => {
  for (const path of ["/", "/login", "/docs/api", "/dashboard", "/no-such-page"]) {
    const response = await request.get(path, { maxRedirects: 0 });
    expect(response.status(), path).toBeLessThan(500);
    const headers = response.headers();
    expect(headers, path).toMatchObject({ ...USUAL, "referrer-policy": "same-origin" });
    const policy = directives(headers["content-security-policy"] ?? "");
    expect(policy.get("script-src"), path).toMatch(/^'self' 'nonce-[A-Za-z0-9+/]{22}==' 'strict-dynamic'$/);
    const nonce = policy.get("script-src")!.split(" ")[1];
    expect(policy.get("style-src"), path).toBe(`'self' ${nonce}`);
    expect(Object.fromEntries(policy), path).toMatchObject({
      "default-src": "'self'",
      "img-src": "'self' data:",
      "connect-src": "'self'",
      "object-src": "'none'",
      "base-uri": "'none'",
      "form-action": "'self'",
      "frame-ancestors": "'none'",
    });
    // Plain http on a sandbox: no HSTS (browsers would ignore it anyway).
    expect(headers["strict-transport-security"]).toBeUndefined();
  }
});

test("route handlers of every face: nothing may run, load or be framed", async ({ client, request }) => {
  const answers = [
    ["signed API, 200", await client.post("/accounts/list")],
    ["signed API, 403", await request.post("/api/v2/accounts/list", { data: {} })],
    ["ping", await request.get("/api/v2/ping")],
    ["unknown API path", await request.get("/api/v2/no/such/path")],
    ["OpenAPI", await request.get("/api/v2/openapi.json")],
    ["dashboard API, signed out", await request.get("/api/dashboard/balances")],
    ["checkout API, unknown token", await request.get("/api/checkout/AAAAAAAAAAAAAAAAAAAAAAAA")],
    ["checkout QR, unknown token", await request.get("/api/checkout/AAAAAAAAAAAAAAAAAAAAAAAA/qr.svg")],
    ["next-auth", await request.get("/api/auth/csrf")],
  ] as const;
  for (const [what, response] of answers) {
    expect(response.status(), what).toBeLessThan(500);
    expect(response.headers(), what).toMatchObject({
      ...USUAL,
      "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
    });
  }
});

test("the checkout page: no Referer leaves it, search engines leave it alone", async ({ request }) => {
  const response = await request.get("/pay/AAAAAAAAAAAAAAAAAAAAAAAA");
  expect(response.status()).toBe(404);
  expect(response.headers()).toMatchObject({
    ...USUAL,
    "referrer-policy": "no-referrer",
    "x-robots-tag": "noindex, nofollow",
  });
  expect(response.headers()["content-security-policy"]).toMatch(/script-src 'self' 'nonce-/);
});
