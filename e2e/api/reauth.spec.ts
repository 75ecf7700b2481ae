import { type APIRequestContext, request as playwrightRequest } from "@playwright/test";
import { generate } from "otplib";
import { createMerchant, expect, type Merchant, projectBaseURL, stepUp, test } from "../fixtures";

/**
 * Sensitive dashboard changes (lib/team/sensitive-actions.ts) need a step-up window of the session:
 * without one they answer 403 `confirmation_required` and change nothing. The window is opened by
 * POST /api/dashboard/step-up, which counts wrong answers per user before checking them
 * (lib/auth/confirm-user.ts): of 12 wrong authenticator codes 5 are checked, the other 7 are
 * answered 429 with Retry-After, and then even the right code waits. Turning two-factor sign-in
 * on asks for the password, always.
 */

/** Wrong answers a guesser would make before the delay starts (SIGN_IN_THROTTLES.reauth.free). */
const FREE = 5;

/** A signed-in dashboard session without two-factor sign-in. */
async function plainSession(merchant: Merchant): Promise<APIRequestContext> {
  const baseURL = projectBaseURL();
  const session = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL } });
  const { csrfToken } = await (await session.get("/api/auth/csrf")).json();
  await session.post("/api/auth/callback/credentials", {
    form: { csrfToken, email: merchant.email, password: merchant.password, json: "true" },
    maxRedirects: 0,
  });
  return session;
}

/** Twelve six-digit codes none of which the authenticator shows within two minutes of now. */
async function wrongCodes(secret: string): Promise<string[]> {
  const now = Math.floor(Date.now() / 1000);
  const valid = new Set(
    await Promise.all(
      [-120, -90, -60, -30, 0, 30, 60, 90, 120].map((s) => generate({ secret, epoch: now + s })),
    ),
  );
  const codes: string[] = [];
  for (let n = 100_000; codes.length < 12; n += 7919) if (!valid.has(String(n))) codes.push(String(n));
  return codes;
}

const nowhere = 2_000_000_000; // an id nobody has: the confirmation comes before the lookup

/** Sensitive routes, each with a body it would accept. */
const ROUTES: { name: string; path: (keyId: number) => string; body: object; method?: "post" | "put" }[] = [
  {
    name: "setting withdrawal limits",
    path: () => "/api/dashboard/withdrawals/limits",
    body: { currency: "BTC", per_withdrawal: "1" },
  },
  {
    name: "removing withdrawal limits",
    path: () => "/api/dashboard/withdrawals/limits/remove",
    body: { currency: "BTC" },
  },
  { name: "approving a withdrawal", path: () => `/api/dashboard/withdrawals/${nowhere}/approve`, body: {} },
  { name: "declining a withdrawal", path: () => `/api/dashboard/withdrawals/${nowhere}/decline`, body: {} },
  {
    name: "rolling an API key",
    path: (id) => `/api/dashboard/api-keys/${id}/roll`,
    body: { overlap_seconds: 3600 },
  },
  { name: "revoking an API key", path: (id) => `/api/dashboard/api-keys/${id}/revoke`, body: {} },
  {
    name: "changing an API key's IP allowlist",
    path: (id) => `/api/dashboard/api-keys/${id}/allowlist`,
    body: { allowed_ips: ["0.0.0.0/0"] },
    method: "put",
  },
  { name: "creating an API key", path: () => "/api/dashboard/api-keys", body: { label: "stolen" } },
  {
    name: "changing the callback URL",
    path: () => "/api/dashboard/callback-url",
    body: { callback_url: "" },
    method: "put",
  },
  { name: "sending a payout", path: () => "/api/dashboard/withdrawals", body: {} },
  { name: "sending an instant payout", path: () => "/api/dashboard/withdrawals/instant", body: {} },
];

test("every sensitive change without a step-up window answers confirmation_required and changes nothing", async () => {
  const merchant = await createMerchant("Reauth Routes");
  const session = await plainSession(merchant);
  const { keys } = await (await session.get("/api/dashboard/api-keys")).json();
  for (const route of ROUTES) {
    const response = await session[route.method ?? "post"](route.path(keys[0].id), { data: route.body });
    expect([route.name, response.status(), (await response.json()).code]).toEqual([
      route.name,
      403,
      "confirmation_required",
    ]);
  }
  const after = await (await session.get("/api/dashboard/api-keys")).json();
  expect(after.keys).toHaveLength(1);
  expect(after.keys[0]).toMatchObject({ revoked_at: null, allowed_ips: [] });
  await session.dispose();
});

test("the confirmation asks the code with two-factor sign-in on: 12 wrong codes, 5 checked, the rest and then the right one wait", async () => {
  const merchant = await createMerchant("Reauth Throttle");
  const session = await plainSession(merchant);
  const { secret } = await (await session.post("/api/dashboard/totp/setup", { data: {} })).json();
  const enabled = await session.post("/api/dashboard/totp/enable", {
    data: { secret, code: await generate({ secret }), password: merchant.password },
  });
  expect(enabled.status()).toBe(200);
  // The password alone no longer confirms.
  const byPassword = await session.post("/api/dashboard/step-up", { data: { password: merchant.password } });
  expect(Object.keys((await byPassword.json()).fields)).toEqual(["code"]);
  const statuses: number[] = [];
  for (const code of await wrongCodes(secret)) {
    const response = await session.post("/api/dashboard/step-up", { data: { code } });
    statuses.push(response.status());
    if (response.status() === 429) expect(Number(response.headers()["retry-after"])).toBeGreaterThan(0);
  }
  expect(statuses).toEqual([...Array(FREE - 1).fill(400), ...Array(13 - FREE).fill(429)]);
  const right = await session.post("/api/dashboard/step-up", { data: { code: await generate({ secret }) } });
  expect(right.status()).toBe(429);
  const { keys } = await (await session.get("/api/dashboard/api-keys")).json();
  const roll = await session.post(`/api/dashboard/api-keys/${keys[0].id}/roll`, { data: {} });
  expect((await roll.json()).code).toBe("confirmation_required");
  await session.dispose();
});

test("one confirmation with the password lets the session roll, restrict and revoke keys; another session is still asked", async () => {
  const merchant = await createMerchant("Reauth Window");
  const session = await plainSession(merchant);
  const other = await plainSession(merchant);
  const { keys } = await (await session.get("/api/dashboard/api-keys")).json();
  const base = `/api/dashboard/api-keys/${keys[0].id}`;
  const wrong = await session.post("/api/dashboard/step-up", { data: { password: "not it" } });
  expect((await wrong.json()).fields).toEqual({ password: "The password is not right." });
  await stepUp(session, { password: merchant.password });
  // A mistyped range is refused on its own field.
  const typo = await session.put(`${base}/allowlist`, { data: { allowed_ips: ["10.0.0.0/33"] } });
  expect((await typo.json()).fields).toEqual({
    allowed_ips: '"10.0.0.0/33" is not an IP address or CIDR range.',
  });
  const allowed = await session.put(`${base}/allowlist`, { data: { allowed_ips: ["127.0.0.1"] } });
  expect((await allowed.json()).allowed_ips).toEqual(["127.0.0.1/32"]);
  expect((await (await other.post(`${base}/revoke`, { data: {} })).json()).code).toBe(
    "confirmation_required",
  );
  const rolled = await session.post(`${base}/roll`, { data: { overlap_seconds: 0 } });
  expect(rolled.status()).toBe(201);
  expect((await rolled.json()).replaced_key).toBe(merchant.apiKey);
  const newest = (await rolled.json()).id;
  expect((await session.post(`/api/dashboard/api-keys/${newest}/revoke`, { data: {} })).status()).toBe(200);
  await session.dispose();
  await other.dispose();
});

test("turning two-factor sign-in on asks for the password: a session alone cannot enrol its own app", async () => {
  const merchant = await createMerchant("Reauth Enrol");
  const session = await plainSession(merchant);
  // Not even with a window: the password is asked every time.
  await stepUp(session, { password: merchant.password });
  const { secret } = await (await session.post("/api/dashboard/totp/setup", { data: {} })).json();
  const enable = (extra: object) =>
    session.post("/api/dashboard/totp/enable", { data: { secret, code: "000000", ...extra } });
  const bare = await enable({});
  expect(bare.status()).toBe(400);
  expect(Object.keys((await bare.json()).fields)).toEqual(["password"]);
  const wrong = await enable({ password: "not it", code: await generate({ secret }) });
  expect(wrong.status()).toBe(400);
  expect((await wrong.json()).fields).toEqual({ password: "The password is not right." });
  // Wrong passwords are counted like every re-authentication: the sixth waits, even the right one,
  // so nothing was turned on by the refusals.
  for (let n = 0; n < 4; n++) expect((await enable({ password: `not it ${n}` })).status()).toBe(400);
  const throttled = await enable({ password: merchant.password, code: await generate({ secret }) });
  expect(throttled.status()).toBe(429);
  expect((await throttled.json()).code).toBe("rate_limited");
  await session.dispose();
});
