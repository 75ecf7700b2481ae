import { type APIRequestContext, request as playwrightRequest } from "@playwright/test";
import { generate } from "otplib";
import { createMerchant, expect, type Merchant, projectBaseURL, test } from "../fixtures";

/**
 * Every route that asks the user again counts wrong answers per user before checking them
 * (lib/auth/confirm-user.ts, README "The dashboard"): of 12 wrong authenticator codes 5 are
 * checked, the other 7 are answered 429 with Retry-After, and then even the right code waits.
 * Creating a key was the first route held to it; these are its siblings. Turning two-factor
 * sign-in on asks for the password, always.
 */

/** Wrong answers a guesser would make before the delay starts (SIGN_IN_THROTTLES.reauth.free). */
const FREE = 5;

/** A signed-in dashboard session with two-factor sign-in on, and the secret of its authenticator. */
async function sessionWithTotp(merchant: Merchant): Promise<{ session: APIRequestContext; secret: string }> {
  const baseURL = projectBaseURL();
  const session = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL } });
  const { csrfToken } = await (await session.get("/api/auth/csrf")).json();
  const login = await session.post("/api/auth/callback/credentials", {
    form: { csrfToken, email: merchant.email, password: merchant.password, json: "true" },
    maxRedirects: 0,
  });
  expect(login.status()).toBeLessThan(400);
  const { secret } = await (await session.post("/api/dashboard/totp/setup", { data: {} })).json();
  const enabled = await session.post("/api/dashboard/totp/enable", {
    data: { secret, code: await generate({ secret }), password: merchant.password },
  });
  expect(enabled.status()).toBe(200);
  return { session, secret };
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

type Route = {
  name: string;
  path: (session: APIRequestContext) => Promise<string>;
  body: object;
  method?: "post" | "put";
};

/** The path of the session's one API key plus `action`. */
const ownKey = (action: string) => async (session: APIRequestContext) => {
  const { keys } = await (await session.get("/api/dashboard/api-keys")).json();
  return `/api/dashboard/api-keys/${keys[0].id}/${action}`;
};

const nowhere = 2_000_000_000; // a withdrawal id nobody has: the confirmation comes before the lookup

const ROUTES: Route[] = [
  {
    name: "setting withdrawal limits",
    path: async () => "/api/dashboard/withdrawals/limits",
    body: { currency: "BTC", per_withdrawal: "1" },
  },
  {
    name: "removing withdrawal limits",
    path: async () => "/api/dashboard/withdrawals/limits/remove",
    body: { currency: "BTC" },
  },
  {
    name: "approving a withdrawal",
    path: async () => `/api/dashboard/withdrawals/${nowhere}/approve`,
    body: {},
  },
  {
    name: "declining a withdrawal",
    path: async () => `/api/dashboard/withdrawals/${nowhere}/decline`,
    body: {},
  },
  { name: "rolling an API key", path: ownKey("roll"), body: { overlap_seconds: 3600 } },
  { name: "revoking an API key", path: ownKey("revoke"), body: {} },
  {
    name: "changing an API key's IP allowlist",
    path: ownKey("allowlist"),
    body: { allowed_ips: ["0.0.0.0/0"] },
    method: "put",
  },
];

for (const route of ROUTES) {
  test(`${route.name}: 12 wrong codes, 5 checked, the rest and then the right one wait`, async () => {
    const merchant = await createMerchant("Reauth Throttle");
    const { session, secret } = await sessionWithTotp(merchant);
    const path = await route.path(session);
    const statuses: number[] = [];
    const send = (code: string) => session[route.method ?? "post"](path, { data: { ...route.body, code } });
    for (const code of await wrongCodes(secret)) {
      const response = await send(code);
      statuses.push(response.status());
      const body = await response.json();
      if (response.status() === 400) expect(Object.keys(body.fields)).toEqual(["code"]);
      else {
        expect(body.code).toBe("rate_limited");
        expect(Number(response.headers()["retry-after"])).toBeGreaterThan(0);
      }
    }
    expect(statuses).toEqual([...Array(FREE).fill(400), ...Array(12 - FREE).fill(429)]);
    // The right code is not even looked at while the user waits: a guesser learns nothing.
    const right = await send(await generate({ secret }));
    expect(right.status()).toBe(429);
    // Nothing changed: the key is neither revoked nor opened up.
    const { keys } = await (await session.get("/api/dashboard/api-keys")).json();
    expect(keys[0]).toMatchObject({ revoked_at: null, allowed_ips: [] });
    await session.dispose();
  });
}

test("rolling an API key asks for the password without two-factor sign-in", async () => {
  const merchant = await createMerchant("Reauth Roll");
  const baseURL = projectBaseURL();
  const session = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL } });
  const { csrfToken } = await (await session.get("/api/auth/csrf")).json();
  await session.post("/api/auth/callback/credentials", {
    form: { csrfToken, email: merchant.email, password: merchant.password, json: "true" },
    maxRedirects: 0,
  });
  const { keys } = await (await session.get("/api/dashboard/api-keys")).json();
  const path = `/api/dashboard/api-keys/${keys[0].id}/roll`;
  const bare = await session.post(path, { data: { overlap_seconds: 0 } });
  expect(bare.status()).toBe(400);
  expect((await bare.json()).fields).toEqual({ password: "Type your password to confirm." });
  const wrong = await session.post(path, { data: { overlap_seconds: 0, password: "not it" } });
  expect((await wrong.json()).fields).toEqual({ password: "The password is not right." });
  // Nothing was rolled by the refusals: the one key is still the only one.
  expect((await (await session.get("/api/dashboard/api-keys")).json()).keys).toHaveLength(1);
  const rolled = await session.post(path, { data: { overlap_seconds: 0, password: merchant.password } });
  expect(rolled.status()).toBe(201);
  expect((await rolled.json()).replaced_key).toBe(merchant.apiKey);
  await session.dispose();
});

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

test("revoking a key and changing its allowlist ask for the password without two-factor sign-in", async () => {
  const merchant = await createMerchant("Reauth Revoke");
  const session = await plainSession(merchant);
  const { keys } = await (await session.get("/api/dashboard/api-keys")).json();
  const base = `/api/dashboard/api-keys/${keys[0].id}`;
  const allow = (extra: object) =>
    session.put(`${base}/allowlist`, { data: { allowed_ips: ["127.0.0.1"], ...extra } });
  const bare = await allow({});
  expect(bare.status()).toBe(400);
  expect((await bare.json()).fields).toEqual({ password: "Type your password to confirm." });
  expect((await (await allow({ password: "not it" })).json()).fields).toEqual({
    password: "The password is not right.",
  });
  // A mistyped range is refused on its own field before any confirmation is asked for.
  const typo = await session.put(`${base}/allowlist`, { data: { allowed_ips: ["10.0.0.0/33"] } });
  expect((await typo.json()).fields).toEqual({
    allowed_ips: '"10.0.0.0/33" is not an IP address or CIDR range.',
  });
  const listed = async () => (await (await session.get("/api/dashboard/api-keys")).json()).keys[0];
  expect(await listed()).toMatchObject({ allowed_ips: [], revoked_at: null });
  const allowed = await allow({ password: merchant.password });
  expect(allowed.status()).toBe(200);
  expect((await allowed.json()).allowed_ips).toEqual(["127.0.0.1/32"]);

  const revokeBare = await session.post(`${base}/revoke`, { data: {} });
  expect(revokeBare.status()).toBe(400);
  expect((await revokeBare.json()).fields).toEqual({ password: "Type your password to confirm." });
  const revokeWrong = await session.post(`${base}/revoke`, { data: { password: "not it" } });
  expect((await revokeWrong.json()).fields).toEqual({ password: "The password is not right." });
  expect((await listed()).revoked_at).toBeNull();
  const revoked = await session.post(`${base}/revoke`, { data: { password: merchant.password } });
  expect(revoked.status()).toBe(200);
  expect((await listed()).revoked_at).not.toBeNull();
  await session.dispose();
});

test("turning two-factor sign-in on asks for the password: a session alone cannot enrol its own app", async () => {
  const merchant = await createMerchant("Reauth Enrol");
  const session = await plainSession(merchant);
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
