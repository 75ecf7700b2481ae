import { randomBytes } from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { POST as revokeKeyRoute } from "@/app/api/dashboard/api-keys/[id]/revoke/route";
import { POST as rollKeyRoute } from "@/app/api/dashboard/api-keys/[id]/roll/route";
import { POST as takeAddressRoute } from "@/app/api/v2/addresses/take/route";
import { POST as instantWithdrawalRoute } from "@/app/api/v2/crypto/withdrawal_instant/route";
import { POST as calculateRoute } from "@/app/api/v2/exchange/calculate/route";
import { POST as exchangeFixedRoute } from "@/app/api/v2/exchange/fixed/route";
import { POST as exchangeNowRoute } from "@/app/api/v2/exchange/now/route";
import { POST as createInvoiceRoute } from "@/app/api/v2/invoices/create/route";
import { POST as withdrawalRoute } from "@/app/api/v2/withdrawal/crypto/route";
import type { CallbackSettings } from "@/lib/callbacks/callback-settings";
import { resendCallback } from "@/lib/callbacks/resend-callback";
import { sendSandboxPayment } from "@/lib/chain/sandbox/send-payment";
import { SecretBox } from "@/lib/crypto/secret-box";
import { registerDatabase, unregisterDatabase } from "@/lib/db/client";
import { transactions } from "@/lib/db/schema";
import { callbackHandlers } from "@/lib/host/job-handlers";
import { runDueJobs } from "@/lib/jobs/runner";
import { creditSandboxBalance } from "@/lib/ledger/credit-sandbox-balance";
import { parseDecimal } from "@/lib/money";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { startReceiver } from "../support/receiver";
import {
  expectSignedBy,
  fixCurrency,
  invoiceBody,
  makeSigningShop,
  type Pair,
  type SigningShop,
} from "../support/signing-shop";

process.env.NEXTAUTH_SECRET = randomBytes(32).toString("hex");
const masterKey = randomBytes(32);
const BTC_ADDRESS = "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu";

/**
 * Which key signs a callback, through the real routes and a real HTTP receiver: the key that
 * created the transaction, else the merchant's designated callback key; never a key created later,
 * a revoked or an expired one. Each signature is checked against an HMAC computed here with the
 * secret expected.
 */
describe(`callback signing keys on ${testDriver}`, () => {
  let database: TestDatabase;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let settings: CallbackSettings;
  let shopCount = 0;

  const deliverAll = () => runDueJobs(database.db, callbackHandlers(settings));
  /** The callbacks the receiver got for one transaction, in order. */
  const receivedFor = (transactionId: number) =>
    receiver.received.filter((r) => JSON.parse(r.body.toString("utf8")).id === transactionId);
  const shop = () =>
    makeSigningShop(database, new SecretBox(masterKey), {
      name: `Signer${++shopCount}`,
      callbackUrl: receiver.url(),
    });
  /** An invoice created through POST /api/v2/invoices/create with `pair`, and its first callback queued. */
  async function apiInvoice(s: SigningShop, pair: Pair): Promise<number> {
    const created = await s.signed(createInvoiceRoute, pair, invoiceBody());
    expect(created.status).toBe(201);
    const id = created.data.id as number;
    await fixCurrency(database, id);
    return id;
  }

  beforeAll(async () => {
    process.env.KASSA_MASTER_KEY = masterKey.toString("hex");
    process.env.KASSA_MODE = "sandbox";
    database = await createTestDatabase();
    registerDatabase(database);
    receiver = await startReceiver();
    settings = { mode: "sandbox", timeoutMs: 2_000, scheduleSeconds: [3600], box: new SecretBox(masterKey) };
  });
  afterEach(() => {
    receiver.received.length = 0;
  });
  afterAll(async () => {
    await receiver.close();
    unregisterDatabase();
    await database.drop();
  });

  it("records the requesting key on every kind of transaction the API creates, and none on the dashboard's", async () => {
    const s = await shop();
    const other = await s.createKey("owner", "integration B");
    for (const currency of ["BTC", "EUR"])
      await creditSandboxBalance(database.db, {
        merchantId: s.merchantId,
        currency,
        amount: parseDecimal("1000"),
        isSandbox: true,
      });
    const payee = (n: number) => ({
      address: BTC_ADDRESS,
      foreign_id: `pay-${n}-${randomBytes(4).toString("hex")}`,
      end_user_reference: `payee-${n}`,
      sender_type: "legal",
      sender_data: { legal_name: "Shop GmbH", country_of_registration: "DEU" },
      receiver_type: "self",
    });
    const ids: number[] = [];
    const call = async (route: Parameters<SigningShop["signed"]>[0], body: Record<string, unknown>) => {
      const answer = await s.signed(route, other, body);
      expect([answer.status, answer.data]).toEqual([
        201,
        expect.objectContaining({ id: expect.any(Number) }),
      ]);
      ids.push(answer.data.id as number);
      return answer.data;
    };
    await call(createInvoiceRoute, invoiceBody());
    await call(withdrawalRoute, { currency: "BTC", amount: "0.01", ...payee(1) });
    await call(withdrawalRoute, { currency: "EUR", amount_to: "0.001", convert_to: "BTC", ...payee(2) });
    await call(instantWithdrawalRoute, { sender_currency: "BTC", sender_amount: "0.01", ...payee(3) });
    const order = { sender_currency: "BTC", receiver_currency: "EUR", sender_amount: "0.01" };
    await call(exchangeNowRoute, { ...order, foreign_id: `now-${randomBytes(4).toString("hex")}` });
    const quote = await s.signed(calculateRoute, other, order);
    expect(quote.status).toBe(200);
    await call(exchangeFixedRoute, {
      ...order,
      price: quote.data.price,
      foreign_id: `fixed-${randomBytes(4).toString("hex")}`,
    });
    // A deposit to a permanent address belongs to the key that took the address.
    const taken = await s.signed(takeAddressRoute, other, {
      currency: "BTC",
      foreign_id: `cust-${randomBytes(4).toString("hex")}`,
    });
    expect(taken.status).toBe(201);
    await sendSandboxPayment(database.db, {
      currency: "BTC",
      address: taken.data.address as string,
      amount: parseDecimal("0.01"),
    });
    const [deposit] = await database.db
      .select({ id: transactions.id })
      .from(transactions)
      .where(and(eq(transactions.merchantId, s.merchantId), eq(transactions.type, "deposit")));
    ids.push(deposit!.id);
    const dashboardId = await s.dashboardInvoice();

    const rows = await database.db
      .select({ id: transactions.id, type: transactions.type, apiKeyId: transactions.apiKeyId })
      .from(transactions)
      .where(inArray(transactions.id, [...ids, dashboardId]));
    expect(new Set(rows.map((r) => r.type))).toEqual(
      new Set(["invoice", "withdrawal", "withdrawal_exchange", "withdrawal_instant", "exchange", "deposit"]),
    );
    for (const row of rows)
      expect([row.id, row.apiKeyId]).toEqual([row.id, row.id === dashboardId ? null : other.id]);

    // The deposit's callback is signed by the key that took the address, not by the default key.
    await deliverAll();
    const [depositCallback] = receivedFor(deposit!.id);
    expectSignedBy(depositCallback!, other);
  });

  it("does not let a developer's key created after the full key sign another key's invoice callbacks", async () => {
    const s = await shop();
    const invoiceId = await apiInvoice(s, s.defaultKey);
    await s.createKey("developer", "developer key");
    const dashboardId = await s.dashboardInvoice();
    await deliverAll();
    expectSignedBy(receivedFor(invoiceId)[0]!, s.defaultKey);
    // The dashboard's invoice is signed by the designated key: the first full key, not the newest.
    expectSignedBy(receivedFor(dashboardId)[0]!, s.defaultKey);
  });

  it("keeps the signer when a new key is created, and each key signs the invoices it created", async () => {
    const s = await shop();
    const newer = await s.createKey("owner", "newer full key");
    const byDefault = await apiInvoice(s, s.defaultKey);
    const byNewer = await apiInvoice(s, newer);
    const byDashboard = await s.dashboardInvoice();
    await deliverAll();
    expectSignedBy(receivedFor(byDefault)[0]!, s.defaultKey);
    expectSignedBy(receivedFor(byNewer)[0]!, newer);
    expectSignedBy(receivedFor(byDashboard)[0]!, s.defaultKey);
  });

  it("falls back to the designated key when the creating key is revoked", async () => {
    const s = await shop();
    const doomed = await s.createKey("owner", "doomed");
    const invoiceId = await apiInvoice(s, doomed);
    const revoked = await s.dashboard(revokeKeyRoute, { id: doomed.id, body: {} });
    expect(revoked.status).toBe(200);
    // A key created afterwards is no candidate: the fallback is the designated key, not the newest.
    await s.createKey("developer", "later");
    await deliverAll();
    expectSignedBy(receivedFor(invoiceId)[0]!, s.defaultKey);
  });

  it("signs with both keys during a roll's overlap, then with the new key, then falls back when that is revoked", async () => {
    const s = await shop();
    const old = await s.createKey("owner", "rolled");
    const first = await apiInvoice(s, old);
    const rolled = await s.dashboard(rollKeyRoute, {
      id: old.id,
      body: { overlap_seconds: 3600 },
    });
    expect(rolled.status).toBe(201);
    const successor = rolled.body as { id: number; api_key: string; api_secret: string };
    const next = { id: successor.id, key: successor.api_key, secret: successor.api_secret };
    await deliverAll();
    // A backend holding either secret verifies: the old key's pair first, the new key's beside it.
    expectSignedBy(receivedFor(first)[0]!, old, next);

    // Rolling the new key with no overlap ends it at once: its successor signs what both created.
    const second = await apiInvoice(s, next);
    const again = await s.dashboard(rollKeyRoute, {
      id: next.id,
      body: { overlap_seconds: 0 },
    });
    expect(again.status).toBe(201);
    const third = again.body as { id: number; api_key: string; api_secret: string };
    const latest = { id: third.id, key: third.api_key, secret: third.api_secret };
    const late = await apiInvoice(s, old); // the old key is still in its overlap: it may create, and signs
    await deliverAll();
    expectSignedBy(receivedFor(second)[0]!, latest);
    expectSignedBy(receivedFor(late)[0]!, old, latest);

    // The end of the chain revoked, no key of it signs: a resend of the second invoice's callback
    // is signed by the designated key.
    expect((await s.dashboard(revokeKeyRoute, { id: latest.id, body: {} })).status).toBe(200);
    receiver.received.length = 0;
    await resendCallback(database.db, { merchantId: s.merchantId, transactionId: second });
    await deliverAll();
    expectSignedBy(receivedFor(second)[0]!, s.defaultKey);
  });
});
