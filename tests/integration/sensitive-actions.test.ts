import { randomBytes } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { generate } from "otplib";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { takeAddress } from "@/lib/addresses/take-address";
import { sendSandboxPayment } from "@/lib/chain/sandbox/send-payment";
import { queryRows, registerDatabase, unregisterDatabase } from "@/lib/db/client";
import { auditEntries, authTokens, users } from "@/lib/db/schema";
import { creditSandboxBalance } from "@/lib/ledger/credit-sandbox-balance";
import { hashPassword } from "@/lib/merchants/create-merchant";
import { parseDecimal } from "@/lib/money";
import { createPaymentLink } from "@/lib/payment-links/create-payment-link";
import { createPaymentLinkRequest } from "@/lib/schemas/payment-links";
import { SENSITIVE_ACTIONS, type SensitiveActionName } from "@/lib/team/sensitive-actions";
import {
  callRoute,
  type DashboardRoute,
  loadDashboardRoutes,
  signInCookie,
} from "../support/dashboard-routes";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { confirm as confirmBlocks, createFixedInvoice, pay, testKeys } from "../support/invoices";
import { createTestMerchant } from "../support/merchants";
import { addMembers } from "../support/team-races";

// A sender the operator's denylist names, so its payments wait for review (docs/compliance.md).
// Set before anything reads the configuration.
const DENIED = vi.hoisted(() => {
  const { mkdtempSync, writeFileSync } = require("node:fs") as typeof import("node:fs");
  const dir = mkdtempSync(`${require("node:os").tmpdir()}/kassa-sensitive-`);
  const sender = "LTCdenied1111111111111111111111111";
  writeFileSync(`${dir}/denylist.txt`, `${sender}\n`);
  process.env.KASSA_SCREENING_DENYLIST = `${dir}/denylist.txt`;
  return sender;
});

process.env.NEXTAUTH_SECRET = randomBytes(32).toString("hex");
process.env.KASSA_MASTER_KEY = randomBytes(32).toString("hex");
// Where invitation links point: the test's requests name a Host that is not this machine.
process.env.KASSA_PUBLIC_URL = "http://localhost:3000";

/**
 * Every dashboard route that changes credentials, money routing, limits or the team, and the entry
 * of lib/team/sensitive-actions.ts it must name: written here on its own, so a route that drops its
 * action, or a new route of that kind, fails until it is classified.
 */
const SENSITIVE_ROUTES: Record<string, SensitiveActionName> = {
  "POST api-keys": "api_key.create",
  "POST api-keys/[id]/roll": "api_key.roll",
  "POST api-keys/[id]/revoke": "api_key.revoke",
  "PUT api-keys/[id]/allowlist": "api_key.allowlist",
  "PUT callback-url": "callback.url",
  "PUT callback-settings": "callback.settings",
  "PUT callback-key": "callback.signing_key",
  "POST withdrawals/limits": "limits.set",
  "POST withdrawals/limits/remove": "limits.remove",
  "POST onboarding": "merchant.onboard",
  "POST password": "account.password",
  "POST totp/enable": "account.two_factor_on",
  "POST totp/disable": "account.two_factor_off",
  "POST team/invitations": "team.invite",
  "POST team/invitations/[id]/resend": "team.invitation_resend",
  "POST team/invitations/[id]/revoke": "team.invitation_revoke",
  "PUT team/members/[id]/role": "team.role",
  "POST team/members/[id]/remove": "team.remove",
  "POST withdrawals": "payout.create",
  "POST withdrawals/instant": "payout.instant",
  "POST withdrawals/[id]/approve": "payout.approve",
  "POST withdrawals/[id]/decline": "payout.decline",
  "POST payout-batches": "payout.batch",
  "POST payout-batches/[id]/approve": "payout.approve",
  "POST payout-batches/[id]/decline": "payout.decline",
  "POST reviews/[id]/release": "review.release",
  "POST reviews/[id]/reject": "review.reject",
  "POST reviews/threshold": "review.threshold",
  "POST invoices/[id]/refunds": "refund.issue",
  "POST invoices/[id]/resolve": "invoice.resolve",
  "PUT underpayment-tolerance": "settings.tolerance",
  "PUT support-email": "settings.support_email",
  "POST payment-links/[id]/deactivate": "payment_link.deactivate",
};

/** The routes that change something yet are not sensitive actions, each with why. */
const NOT_SENSITIVE: Record<string, string> = {
  "POST step-up": "the confirmation itself: it opens the window, its wrong answers throttled by confirmUser",
  "POST totp/setup": "hands out a new secret to scan; nothing changes until totp/enable",
  "POST invoices": "asks for money to come in; moves none out",
  "POST payment-links": "a page that asks for money to come in; moves none out (audited by the engine)",
  "POST invoices/[id]/cancel": "stops an invoice from being paid; moves no money",
  "POST invoices/[id]/refunds/preview": "a refund's figures, computed; changes nothing",
  "POST refunds/[id]/cancel": "withdraws an unclaimed refund offer; moves no money (audited by the engine)",
  "POST quote": "a price, computed; changes nothing",
  "POST payout-batches/check": "a file's payouts, checked and priced; sends nothing",
  "POST callbacks/[id]/resend": "delivers an already signed callback again to the URL already set",
  "POST callbacks/retry-pending": "delivers pending callbacks now to the URL already set",
  "POST callbacks/test": "sends a test callback to the URL already set",
  "POST sandbox/blocks": "sandbox mode only: simulated chain",
  "POST sandbox/credit": "sandbox mode only: simulated money",
  "POST sandbox/invoices/[id]": "sandbox mode only: simulated payments",
  "POST sandbox/payments": "sandbox mode only: simulated payments",
  "POST sandbox/rates": "sandbox mode only: simulated prices",
  "POST signup": "public: no session, a way in",
  "POST signup/confirm": "public: the e-mailed link is the proof",
  "POST password-reset": "public: sends a link to the account's own address",
  "POST password-reset/confirm": "public: the e-mailed link is the proof",
  "POST team/join": "public: the invitation link is the proof",
  "POST team/join/invitation": "public: only reads what the invitation link invites to",
};

const PASSWORD = "long password 1";
const BTC_ADDRESS = "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu";
const TRAVEL_RULE = {
  sender_type: "legal",
  sender_data: { legal_name: "Shop GmbH", country_of_registration: "DEU" },
  receiver_type: "self",
};

describe(`every sensitive dashboard route asks its permission, its confirmation and records its audit entry on ${testDriver}`, () => {
  let database: TestDatabase;
  let routes: DashboardRoute[];
  let merchantId: number;
  let ownerId: number;
  let owner: string;
  let foreign = 0;

  const routeOf = (key: string) => routes.find((r) => r.key === key)!;
  const auditCount = async (merchant: number, action: string) =>
    (
      await database.db
        .select()
        .from(auditEntries)
        .where(and(eq(auditEntries.merchantId, merchant), eq(auditEntries.action, action)))
    ).length;
  const stepUp = async (cookie: string) =>
    expect(
      (
        await callRoute(routeOf("POST step-up").handler, {
          path: "step-up",
          cookie,
          body: { password: PASSWORD },
        })
      ).status,
    ).toBe(200);
  const withPassword = async (merchant: number, role: "owner" | "viewer", name: string) => {
    const [id] = await addMembers(database, { merchantId: merchant, prefix: name, roles: [role] });
    await database.db
      .update(users)
      .set({ passwordHash: await hashPassword(PASSWORD) })
      .where(eq(users.id, id!));
    return id!;
  };

  /**
   * Drives one sensitive route once, as the table says it must be confirmed: refused without the
   * confirmation (nothing recorded), then done with it, and the trail gains one entry of the
   * table's audit action. Returns the successful answer's body.
   */
  async function drive(
    key: string,
    input: { cookie: string; merchant?: number; body?: unknown; id?: string | number },
  ): Promise<Record<string, unknown>> {
    const route = routeOf(key);
    const entry = SENSITIVE_ACTIONS[SENSITIVE_ROUTES[key]!];
    driven.add(key);
    const merchant = input.merchant ?? merchantId;
    const path = route.name.replace("[id]", String(input.id));
    const call = (cookie: string, body: unknown) =>
      callRoute(route.handler, { path, cookie, method: route.method, body, id: input.id });
    const before = await auditCount(merchant, entry.audit);
    if (entry.confirmation.kind === "step_up") {
      // A fresh sign-in of the same user has no window: refused, before anything is read or changed.
      const unconfirmed = await call(await signInCookie(database.db, await userOf(input.cookie)), input.body);
      expect([key, unconfirmed.status, unconfirmed.body.code]).toEqual([key, 403, "confirmation_required"]);
    } else {
      const field = entry.confirmation.field;
      const wrong = await call(input.cookie, { ...(input.body as object), [field]: "not the password" });
      expect([key, wrong.status, Object.keys((wrong.body.fields as object) ?? {})]).toEqual([
        key,
        400,
        [field],
      ]);
    }
    expect([key, await auditCount(merchant, entry.audit)]).toEqual([key, before]);
    const done = await call(input.cookie, input.body);
    expect([key, done.status < 300 ? "done" : done.body]).toEqual([key, "done"]);
    expect([key, await auditCount(merchant, entry.audit)]).toEqual([key, before + 1]);
    return { ...done.body, set_cookie: done.setCookie };
  }
  /** The sensitive routes driven so far: the last test holds the list to SENSITIVE_ROUTES. */
  const driven = new Set<string>();
  const cookieUsers = new Map<string, number>();
  const userOf = async (cookie: string) => cookieUsers.get(cookie)!;
  const signIn = async (userId: number) => {
    const cookie = await signInCookie(database.db, userId);
    cookieUsers.set(cookie, userId);
    return cookie;
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    registerDatabase(database);
    routes = await loadDashboardRoutes();
    merchantId = await createTestMerchant(database, "Sensitive");
    const [user] = await database.db.select().from(users).where(eq(users.merchantId, merchantId));
    ownerId = user!.id;
    owner = await signIn(ownerId);
    await stepUp(owner);
    await creditSandboxBalance(database.db, {
      merchantId,
      currency: "BTC",
      amount: parseDecimal("1"),
      isSandbox: true,
    });
  });
  afterAll(async () => {
    unregisterDatabase();
    await database.drop();
  });

  it("classifies every route that changes something: a sensitive action of the table, or not sensitive with a reason", () => {
    for (const route of routes) {
      const isRead = route.method === "GET" || route.method === "HEAD";
      const expected = isRead
        ? undefined
        : (SENSITIVE_ROUTES[route.key] ?? (NOT_SENSITIVE[route.key] ? undefined : "unclassified"));
      expect([route.key, route.handler.action]).toEqual([route.key, expected]);
      if (route.handler.action)
        expect([route.key, route.handler.permission]).toEqual([
          route.key,
          SENSITIVE_ACTIONS[route.handler.action].permission,
        ]);
    }
    // Both lists name existing routes only, and the table has no entry no route uses.
    const keys = routes.map((r) => r.key);
    for (const key of [...Object.keys(SENSITIVE_ROUTES), ...Object.keys(NOT_SENSITIVE)])
      expect(keys).toContain(key);
    expect(new Set(Object.values(SENSITIVE_ROUTES))).toEqual(new Set(Object.keys(SENSITIVE_ACTIONS)));
  });

  it("drives the API key, callback, limit and review-threshold routes: confirmed, then audited", async () => {
    const created = await drive("POST api-keys", {
      cookie: owner,
      body: { label: "first", can_move_money: true },
    });
    const second = await drive("POST api-keys", { cookie: owner, body: { label: "second" } });
    await drive("PUT api-keys/[id]/allowlist", {
      cookie: owner,
      id: created.id as number,
      body: { allowed_ips: ["10.0.0.0/8"] },
    });
    await drive("POST api-keys/[id]/roll", {
      cookie: owner,
      id: created.id as number,
      body: { overlap_seconds: 0 },
    });
    await drive("POST api-keys/[id]/revoke", { cookie: owner, id: second.id as number });
    await drive("PUT callback-url", {
      cookie: owner,
      body: { callback_url: "http://localhost:4000/callbacks" },
    });
    await drive("PUT callback-settings", { cookie: owner, body: { is_below_minimum_callback_on: true } });
    const signer = await drive("POST api-keys", {
      cookie: owner,
      body: { label: "signer", can_move_money: true },
    });
    await drive("PUT callback-key", { cookie: owner, body: { key_id: signer.id } });
    await drive("POST reviews/threshold", { cookie: owner, body: { threshold: "90" } });
    await drive("PUT underpayment-tolerance", { cookie: owner, body: { tolerance_percent: "0.5" } });
    await drive("PUT support-email", { cookie: owner, body: { support_email: "help@sensitive.example" } });
  });

  it("drives Mark resolved on an invoice that owes its customer money", async () => {
    const invoice = await createFixedInvoice(database.db, merchantId, "LTC");
    await pay(database.db, invoice, invoice.invoice.senderAmount! * 2n);
    await confirmBlocks(database.db, "LTC");
    await drive("POST invoices/[id]/resolve", {
      cookie: owner,
      id: invoice.id,
      body: { reason: "too_small", note: "" },
    });
  });

  it("drives Deactivate on a payment link", async () => {
    const link = await createPaymentLink(database.db, {
      merchantId,
      request: createPaymentLinkRequest.parse({ title: "Tickets", currency: "EUR", amount: "25" }),
      audit: { actor: { kind: "cli" } },
    });
    const deactivated = await drive("POST payment-links/[id]/deactivate", {
      cookie: owner,
      id: link.link.id,
    });
    expect(deactivated.status).toBe("inactive");
  });

  it("drives payouts of every kind, their approval and decline, and the limits that hold them", async () => {
    const payout = () => ({
      currency: "BTC",
      amount: "0.01",
      address: BTC_ADDRESS,
      foreign_id: `sensitive-${++foreign}`,
      end_user_reference: "payee",
      ...TRAVEL_RULE,
    });
    await drive("POST withdrawals/limits", {
      cookie: owner,
      body: { currency: "BTC", per_withdrawal: "0.001" },
    });
    const held = await drive("POST withdrawals", { cookie: owner, body: payout() });
    const heldToo = await drive("POST withdrawals", { cookie: owner, body: payout() });
    expect([held.status, heldToo.status]).toEqual(["pending", "pending"]);
    await drive("POST withdrawals/instant", {
      cookie: owner,
      body: {
        sender_currency: "BTC",
        sender_amount: "0.01",
        address: BTC_ADDRESS,
        foreign_id: `sensitive-${++foreign}`,
        end_user_reference: "payee",
        ...TRAVEL_RULE,
      },
    });
    // Another member decides: the creator never approves their own.
    const [financeId] = await addMembers(database, { merchantId, prefix: "approver", roles: ["finance"] });
    await database.db
      .update(users)
      .set({ passwordHash: await hashPassword(PASSWORD) })
      .where(eq(users.id, financeId!));
    const finance = await signIn(financeId!);
    await stepUp(finance);
    await drive("POST withdrawals/[id]/approve", { cookie: finance, id: held.id as number });
    await drive("POST withdrawals/[id]/decline", { cookie: finance, id: heldToo.id as number });
    // A bulk payout of one line, over the same limit: one approval (or decline) for the batch.
    const bulk = () => ({
      file: Buffer.from(
        `reference,currency,amount,address,receiver_type\nsensitive-${++foreign},BTC,0.01,${BTC_ADDRESS},self\n`,
      ).toString("base64"),
      sender_type: TRAVEL_RULE.sender_type,
      sender_data: TRAVEL_RULE.sender_data,
    });
    const batch = await drive("POST payout-batches", { cookie: owner, body: bulk() });
    const batchToo = await drive("POST payout-batches", { cookie: owner, body: bulk() });
    expect([batch.needs_approval, batchToo.needs_approval]).toEqual([true, true]);
    await drive("POST payout-batches/[id]/approve", { cookie: finance, id: batch.id as number });
    await drive("POST payout-batches/[id]/decline", { cookie: finance, id: batchToo.id as number });
    await drive("POST withdrawals/limits/remove", { cookie: owner, body: { currency: "BTC" } });
  });

  it("drives the team routes", async () => {
    await drive("POST team/invitations", {
      cookie: owner,
      body: { email: "new.member@example.com", role: "viewer" },
    });
    const [invitation] = await database.db
      .select()
      .from(authTokens)
      .where(eq(authTokens.purpose, "invitation"));
    await drive("POST team/invitations/[id]/resend", { cookie: owner, id: invitation!.tokenHash });
    const [resent] = await database.db
      .select()
      .from(authTokens)
      .where(and(eq(authTokens.purpose, "invitation"), sql`${authTokens.usedAt} is null`));
    await drive("POST team/invitations/[id]/revoke", { cookie: owner, id: resent!.tokenHash });
    const [memberId] = await addMembers(database, { merchantId, prefix: "member", roles: ["viewer"] });
    await drive("PUT team/members/[id]/role", { cookie: owner, id: memberId!, body: { role: "developer" } });
    await drive("POST team/members/[id]/remove", { cookie: owner, id: memberId! });
  });

  it("drives issuing a refund the customer claims", async () => {
    const invoice = await createFixedInvoice(database.db, merchantId, "BTC", { timer: false });
    await sendSandboxPayment(database.db, {
      currency: "BTC",
      address: invoice.address!.address,
      amount: invoice.invoice.senderAmount! + 20_000n,
    });
    await confirmBlocks(database.db, "BTC");
    const issued = await drive("POST invoices/[id]/refunds", {
      cookie: owner,
      id: invoice.id,
      body: { amount: "full" },
    });
    expect(issued).toMatchObject({ status: "offered", amount: "0.0002", currency: "BTC" });
  });

  it("drives the compliance decisions on held payments", async () => {
    const heldPayment = async () => {
      const address = await takeAddress(database.db, testKeys, {
        merchantId,
        foreignId: `held-${++foreign}`,
        currency: "LTC",
      });
      await sendSandboxPayment(database.db, {
        currency: "LTC",
        address: address.address,
        amount: parseDecimal("1"),
        sender_address: DENIED,
      });
      await confirmBlocks(database.db, "LTC");
    };
    await heldPayment();
    await heldPayment();
    const reviews = await queryRows<{ id: string }>(
      database.db,
      sql`select id::text from compliance_reviews where merchant_id = ${merchantId} and status = 'held' order by id`,
    );
    expect(reviews).toHaveLength(2);
    await drive("POST reviews/[id]/release", { cookie: owner, id: reviews[0]!.id });
    await drive("POST reviews/[id]/reject", { cookie: owner, id: reviews[1]!.id });
  });

  it("drives onboarding, the password and the second factor (the last two ask the current password every time)", async () => {
    const fresh = await createTestMerchant(database, "Fresh");
    await database.db.execute(sql`update merchants set onboarded_at = null where id = ${fresh}`);
    const [freshOwner] = await database.db.select().from(users).where(eq(users.merchantId, fresh));
    const freshCookie = await signIn(freshOwner!.id);
    await stepUp(freshCookie);
    await drive("POST onboarding", { cookie: freshCookie, merchant: fresh, body: { name: "Fresh Ltd" } });

    // A window does not stand in for the current password.
    const changer = await signIn(await withPassword(merchantId, "viewer", "changer"));
    await stepUp(changer);
    await drive("POST password", {
      cookie: changer,
      body: { current_password: PASSWORD, new_password: "a new long password" },
    });

    let enroller = await signIn(await withPassword(merchantId, "viewer", "enroller"));
    await stepUp(enroller);
    const setup = await callRoute(routeOf("POST totp/setup").handler, {
      path: "totp/setup",
      cookie: enroller,
    });
    const secret = setup.body.secret as string;
    const enabled = await drive("POST totp/enable", {
      cookie: enroller,
      body: { secret, code: await generate({ secret }), password: PASSWORD },
    });
    // Turning the second factor on ended the user's other sessions: this browser goes on with its renewed cookie.
    enroller = enabled.set_cookie as string;
    await drive("POST totp/disable", { cookie: enroller, body: { password: PASSWORD } });
  });

  it("drove every sensitive route: none goes unchecked for its confirmation and its audit entry", () => {
    expect([...driven].sort()).toEqual(Object.keys(SENSITIVE_ROUTES).sort());
  });
});
