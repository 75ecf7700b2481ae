import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SIGN_IN_THROTTLES } from "@/lib/auth/claim-sign-in-attempt";
import { endSessions } from "@/lib/auth/end-sessions";
import { findStepUpWindow } from "@/lib/auth/find-step-up-window";
import { openStepUpWindow, STEP_UP_SECONDS } from "@/lib/auth/open-step-up-window";
import { registerDatabase, unregisterDatabase } from "@/lib/db/client";
import { apiKeys, auditEntries, merchants, stepUpWindows, users, withdrawals } from "@/lib/db/schema";
import { creditSandboxBalance } from "@/lib/ledger/credit-sandbox-balance";
import { parseDecimal } from "@/lib/money";
import { testClock } from "../support/clock";
import {
  callRoute,
  type DashboardRoute,
  loadDashboardRoutes,
  signInCookie,
} from "../support/dashboard-routes";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { createTestMerchant } from "../support/merchants";

// The route handlers read the process's configuration: a session secret and a master key of this test's own.
process.env.NEXTAUTH_SECRET = randomBytes(32).toString("hex");
process.env.KASSA_MASTER_KEY = randomBytes(32).toString("hex");

const PASSWORD = "long password 1";
const BTC_ADDRESS = "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu";
const TRAVEL_RULE = {
  sender_type: "legal",
  sender_data: { legal_name: "Shop GmbH", country_of_registration: "DEU" },
  receiver_type: "self",
};

describe(`step-up confirmation of sensitive dashboard changes on ${testDriver}`, () => {
  let database: TestDatabase;
  let routes: Map<string, DashboardRoute>;
  let merchantId: number;
  let userId: number;
  let foreign = 0;

  const route = (key: string) => routes.get(key)!.handler;
  const payout = (overrides: Record<string, unknown> = {}) => ({
    currency: "BTC",
    amount: "0.01",
    address: BTC_ADDRESS,
    foreign_id: `step-up-${++foreign}`,
    end_user_reference: "payee",
    ...TRAVEL_RULE,
    ...overrides,
  });
  const instantPayout = () => ({
    sender_currency: "BTC",
    sender_amount: "0.01",
    address: BTC_ADDRESS,
    foreign_id: `step-up-${++foreign}`,
    end_user_reference: "payee",
    ...TRAVEL_RULE,
  });
  const confirm = (cookie: string, answer: Record<string, string> = { password: PASSWORD }) =>
    callRoute(route("POST step-up"), { path: "step-up", cookie, body: answer });
  const withdrawalCount = async (merchant: number) =>
    (await database.db.select().from(withdrawals).where(eq(withdrawals.merchantId, merchant))).length;

  beforeAll(async () => {
    database = await createTestDatabase();
    registerDatabase(database);
    merchantId = await createTestMerchant(database, "Stepper");
    const [user] = await database.db.select().from(users).where(eq(users.merchantId, merchantId));
    userId = user!.id;
    await creditSandboxBalance(database.db, {
      merchantId,
      currency: "BTC",
      amount: parseDecimal("1"),
      isSandbox: true,
    });
    routes = new Map((await loadDashboardRoutes()).map((r) => [r.key, r]));
  });
  afterAll(async () => {
    unregisterDatabase();
    await database.drop();
  });

  it("asks before a payout, an instant payout or a refund is sent from the dashboard, and sends nothing unconfirmed", async () => {
    const cookie = await signInCookie(database.db, userId);
    const refused = [
      await callRoute(route("POST withdrawals"), { path: "withdrawals", cookie, body: payout() }),
      await callRoute(route("POST withdrawals/instant"), {
        path: "withdrawals/instant",
        cookie,
        body: instantPayout(),
      }),
      // A refund is a payout recorded against the invoice it refunds: asked for all the same.
      await callRoute(route("POST withdrawals"), {
        path: "withdrawals",
        cookie,
        body: payout({ refund_of: 1 }),
      }),
    ];
    for (const answer of refused)
      expect([answer.status, answer.body.code]).toEqual([403, "confirmation_required"]);
    expect(await withdrawalCount(merchantId)).toBe(0);

    expect((await confirm(cookie, { password: "not my password" })).body.fields).toEqual({
      password: "The password is not right.",
    });
    expect((await confirm(cookie)).status).toBe(200);
    const sent = await callRoute(route("POST withdrawals"), { path: "withdrawals", cookie, body: payout() });
    const instant = await callRoute(route("POST withdrawals/instant"), {
      path: "withdrawals/instant",
      cookie,
      body: instantPayout(),
    });
    expect([sent.status, instant.status]).toEqual([201, 201]);
    expect(await withdrawalCount(merchantId)).toBe(2);
  });

  it("opens the window for the session that confirmed only: another session of the same user is asked", async () => {
    const here = await signInCookie(database.db, userId);
    const elsewhere = await signInCookie(database.db, userId);
    expect((await confirm(here)).status).toBe(200);
    const create = (cookie: string) =>
      callRoute(route("POST api-keys"), { path: "api-keys", cookie, body: { label: "window" } });
    expect((await create(here)).status).toBe(201);
    const other = await create(elsewhere);
    expect([other.status, other.body.code]).toEqual([403, "confirmation_required"]);
  });

  it("closes the window after STEP_UP_SECONDS, by the clock the window was opened with", async () => {
    const clock = testClock();
    const sessionId = `clock-${randomBytes(6).toString("hex")}`;
    const opened = clock.now().getTime();
    const until = await openStepUpWindow(database.db, { sessionId, userId, clock });
    // 5 minutes from the confirmation (give or take the milliseconds the call itself took).
    expect(until.getTime() - opened).toBeGreaterThanOrEqual(STEP_UP_SECONDS * 1000);
    expect(until.getTime() - opened).toBeLessThan(STEP_UP_SECONDS * 1000 + 1000);
    clock.advance(STEP_UP_SECONDS - 1);
    expect(await findStepUpWindow(database.db, { sessionId, userId, clock })).toEqual(until);
    clock.advance(2);
    expect(await findStepUpWindow(database.db, { sessionId, userId, clock })).toBeNull();
    // Another user cannot borrow the session's window.
    expect(await findStepUpWindow(database.db, { sessionId, userId: userId + 1000 })).toBeNull();
  });

  it("asks again once the window of the session ran out, through the route", async () => {
    const cookie = await signInCookie(database.db, userId);
    expect((await confirm(cookie)).status).toBe(200);
    // The same window, opened as if 5 minutes and a second ago (the route reads the system clock).
    const { sessionId } = (await import("@/lib/auth/read-request-session").then((m) =>
      m.readRequestSession(database.db, new Request("http://kassa.test/", { headers: { cookie } })),
    ))!;
    const past = { now: () => new Date(Date.now() - (STEP_UP_SECONDS + 1) * 1000) };
    await openStepUpWindow(database.db, { sessionId: sessionId!, userId, clock: past });
    const late = await callRoute(route("POST withdrawals"), { path: "withdrawals", cookie, body: payout() });
    expect([late.status, late.body.code]).toEqual([403, "confirmation_required"]);
  });

  it("ends every window of the user at sign-out", async () => {
    const cookie = await signInCookie(database.db, userId);
    expect((await confirm(cookie)).status).toBe(200);
    const [user] = await database.db.select().from(users).where(eq(users.id, userId));
    await endSessions(database.db, { userId, sessionVersion: user!.sessionVersion });
    const left = await database.db.select().from(stepUpWindows).where(eq(stepUpWindows.userId, userId));
    expect(left).toHaveLength(0);
    // The old cookie is no session at all now; a new sign-in starts without a window.
    const again = await signInCookie(database.db, userId);
    const create = await callRoute(route("POST api-keys"), {
      path: "api-keys",
      cookie: again,
      body: { label: "after sign-out" },
    });
    expect(create.body.code).toBe("confirmation_required");
  });

  it("counts wrong answers per user, as every confirmation does: 5, then a wait", async () => {
    const throttled = await createTestMerchant(database, "Guesser");
    const [user] = await database.db.select().from(users).where(eq(users.merchantId, throttled));
    const cookie = await signInCookie(database.db, user!.id);
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await confirm(cookie, { password: `guess ${i}` })).status);
    expect(statuses.filter((s) => s === 400)).toHaveLength(SIGN_IN_THROTTLES.reauth.free);
    expect(statuses.filter((s) => s === 429)).toHaveLength(8 - SIGN_IN_THROTTLES.reauth.free);
    expect((await confirm(cookie)).status).toBe(429);
  });

  it("onboards once: confirmed and audited, and a second onboarding mints nothing and replaces nothing", async () => {
    const fresh = await createTestMerchant(database, "Newcomer");
    await database.db.update(merchants).set({ onboardedAt: null }).where(eq(merchants.id, fresh));
    const [user] = await database.db.select().from(users).where(eq(users.merchantId, fresh));
    const cookie = await signInCookie(database.db, user!.id);
    const onboard = (body: Record<string, unknown>) =>
      callRoute(route("POST onboarding"), { path: "onboarding", cookie, body });
    const keys = async () =>
      (await database.db.select().from(apiKeys).where(eq(apiKeys.merchantId, fresh))).map((k) => k.key);
    const keysBefore = await keys();

    const unconfirmed = await onboard({ name: "Newcomer Ltd", callback_url: "http://localhost:4000/first" });
    expect([unconfirmed.status, unconfirmed.body.code]).toEqual([403, "confirmation_required"]);
    expect(await keys()).toEqual(keysBefore);

    expect((await confirm(cookie)).status).toBe(200);
    const first = await onboard({ name: "Newcomer Ltd", callback_url: "http://localhost:4000/first" });
    expect(first.status).toBe(200);
    expect(await keys()).toEqual([...keysBefore, first.body.api_key]);
    const trail = await database.db
      .select()
      .from(auditEntries)
      .where(and(eq(auditEntries.merchantId, fresh), eq(auditEntries.action, "onboarding_completed")));
    expect(trail).toHaveLength(1);
    expect(trail[0]!.detail).toContain(String(first.body.api_key));

    // The replay of finding a stolen session would try: a new key that moves money, and the callback URL.
    const replay = await onboard({ name: "Evil", callback_url: "http://localhost:4000/attacker" });
    expect([replay.status, replay.body.code]).toEqual([409, "conflict"]);
    expect(replay.body).not.toHaveProperty("api_secret");
    expect(await keys()).toEqual([...keysBefore, first.body.api_key]);
    const [merchant] = await database.db.select().from(merchants).where(eq(merchants.id, fresh));
    expect([merchant!.name, merchant!.callbackUrl]).toEqual(["Newcomer Ltd", "http://localhost:4000/first"]);
  });

  it("refuses two onboardings at once but one", async () => {
    const fresh = await createTestMerchant(database, "Racer");
    await database.db.update(merchants).set({ onboardedAt: null }).where(eq(merchants.id, fresh));
    const [user] = await database.db.select().from(users).where(eq(users.merchantId, fresh));
    const cookie = await signInCookie(database.db, user!.id);
    expect((await confirm(cookie)).status).toBe(200);
    const keysBefore = (await database.db.select().from(apiKeys).where(eq(apiKeys.merchantId, fresh))).length;
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        callRoute(route("POST onboarding"), { path: "onboarding", cookie, body: { name: `Racer ${i}` } }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409, 409]);
    const keysAfter = (await database.db.select().from(apiKeys).where(eq(apiKeys.merchantId, fresh))).length;
    expect(keysAfter - keysBefore).toBe(1);
  });
});
