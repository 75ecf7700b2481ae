import { createHmac, randomBytes } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as withdrawRoute } from "@/app/api/v2/withdrawal/crypto/route";
import { requestContextStorage } from "@/lib/api/request-context";
import { auditEntriesCsv } from "@/lib/audit/audit-entries-csv";
import { listAuditEntries } from "@/lib/audit/list-audit-entries";
import { parseAuditFilter } from "@/lib/audit/parse-audit-filter";
import { type AuditActor, recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { recordSignIn } from "@/lib/audit/record-sign-in";
import { setCallbackUrl } from "@/lib/callbacks/set-callback-url";
import { SecretBox } from "@/lib/crypto/secret-box";
import { registerDatabase, unregisterDatabase } from "@/lib/db/client";
import { auditEntries, users } from "@/lib/db/schema";
import { creditSandboxBalance } from "@/lib/ledger/credit-sandbox-balance";
import { removeWithdrawalLimits } from "@/lib/limits/remove-withdrawal-limits";
import { setWithdrawalLimits } from "@/lib/limits/set-withdrawal-limits";
import { createMerchant } from "@/lib/merchants/create-merchant";
import { parseDecimal } from "@/lib/money";
import { withdrawalRequest } from "@/lib/schemas/withdrawals";
import { createWithdrawal } from "@/lib/withdrawals/create-withdrawal";
import { decideWithdrawal } from "@/lib/withdrawals/decide-withdrawal";
import { withdrawalInput } from "@/lib/withdrawals/from-request";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { pricing } from "../support/invoices";
import { fieldsOf } from "../support/merchants";

const BTC_ADDRESS = "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu";

/**
 * The audit trail: each sensitive action leaves one entry in its merchant's trail, with who, from
 * where and what, written with the action; the trail filters, pages and exports formula-safe CSV.
 */
describe(`audit trail on ${testDriver}`, () => {
  let database: TestDatabase;
  const masterKey = randomBytes(32);
  const box = new SecretBox(masterKey);
  type Shop = { merchantId: number; userId: number; email: string; key: string; secret: string };
  let shop: Shop;
  let owner: AuditActor;
  let counter = 0;

  async function makeShop(name: string): Promise<Shop> {
    const email = `${name.toLowerCase()}-${randomBytes(4).toString("hex")}@example.com`;
    const created = await createMerchant(database.db, box, { name, email, password: "long password 1" });
    return {
      merchantId: created.merchantId,
      userId: created.userId,
      email,
      key: created.apiKey.key,
      secret: created.apiKey.secret,
    };
  }

  const trail = async (merchantId: number) =>
    database.db
      .select()
      .from(auditEntries)
      .where(eq(auditEntries.merchantId, merchantId))
      .orderBy(asc(auditEntries.id));

  const withdrawalBody = (overrides: Record<string, unknown> = {}) => {
    counter++;
    return {
      currency: "BTC",
      amount: "0.01",
      address: BTC_ADDRESS,
      foreign_id: `audit-${counter}-${randomBytes(4).toString("hex")}`,
      end_user_reference: `payee-${counter}`,
      sender_type: "legal",
      sender_data: { legal_name: "Shop GmbH", country_of_registration: "DEU" },
      receiver_type: "self",
      ...overrides,
    };
  };

  beforeAll(async () => {
    process.env.KASSA_MASTER_KEY = masterKey.toString("hex");
    process.env.KASSA_MODE = "sandbox";
    database = await createTestDatabase();
    registerDatabase(database);
    shop = await makeShop("Audited");
    owner = { kind: "user", userId: shop.userId, email: shop.email };
    await creditSandboxBalance(database.db, {
      merchantId: shop.merchantId,
      currency: "BTC",
      amount: parseDecimal("1"),
      isSandbox: true,
    });
  });

  afterAll(async () => {
    unregisterDatabase();
    await database.drop();
  });

  it("records a sign-in and a failed one for a known e-mail, and nothing for an unknown one", async () => {
    const s = await makeShop("SignIn");
    await recordSignIn(database.db, {
      email: s.email.toUpperCase(),
      address: "198.51.100.4",
      isSuccess: true,
    });
    await recordSignIn(database.db, {
      email: s.email,
      address: "2001:db8::4",
      isSuccess: false,
      reason: "invalid",
    });
    await recordSignIn(database.db, {
      email: "nobody@example.com",
      address: "198.51.100.4",
      isSuccess: false,
    });
    const rows = await trail(s.merchantId);
    expect(rows.map((r) => [r.action, r.actor, r.userId, r.address, r.detail])).toEqual([
      ["sign_in", s.email, s.userId, "198.51.100.4", ""],
      ["sign_in_failed", s.email, s.userId, "2001:db8::4", "invalid"],
    ]);
  });

  it("records limits set and removed, by a user and by the operator CLI, in the change's transaction", async () => {
    const s = await makeShop("Limits");
    await database.db.transaction((tx) =>
      setWithdrawalLimits(tx, {
        merchantId: s.merchantId,
        currency: "BTC",
        perWithdrawal: "0.5",
        perDay: "2",
        audit: { actor: { kind: "user", userId: s.userId, email: s.email }, address: "198.51.100.5" },
      }),
    );
    await setWithdrawalLimits(database.db, {
      merchantId: s.merchantId,
      currency: "ETH",
      perWithdrawal: "1",
      audit: { actor: { kind: "cli" } },
    });
    await removeWithdrawalLimits(database.db, {
      merchantId: s.merchantId,
      currency: "ETH",
      audit: { actor: { kind: "cli" } },
    });
    // A refused change leaves no entry.
    expect(
      await fieldsOf(
        setWithdrawalLimits(database.db, {
          merchantId: s.merchantId,
          currency: "BTC",
          perWithdrawal: "3",
          perDay: "1",
          audit: { actor: { kind: "cli" } },
        }),
      ),
    ).toHaveProperty("per_day");
    const rows = await trail(s.merchantId);
    expect(rows.map((r) => [r.action, r.actor, r.address, r.detail])).toEqual([
      ["limit_changed", s.email, "198.51.100.5", "BTC: 0.50000000 per withdrawal, 2.00000000 per day"],
      ["limit_changed", "operator CLI", null, "ETH: 1.00000000 per withdrawal, no per day"],
      ["limit_changed", "operator CLI", null, "ETH: limits removed"],
    ]);
  });

  it("records callback URL changes, and none when the URL is refused", async () => {
    const s = await makeShop("Callback");
    const source = {
      actor: { kind: "user" as const, userId: s.userId, email: s.email },
      address: "198.51.100.6",
    };
    await setCallbackUrl(database.db, {
      merchantId: s.merchantId,
      url: "http://127.0.0.1:9/callbacks",
      mode: "sandbox",
      audit: source,
    });
    await setCallbackUrl(database.db, {
      merchantId: s.merchantId,
      url: null,
      mode: "sandbox",
      audit: source,
    });
    await expect(
      setCallbackUrl(database.db, {
        merchantId: s.merchantId,
        url: "http://169.254.169.254/latest",
        mode: "sandbox",
        audit: source,
      }),
    ).rejects.toBeDefined();
    expect((await trail(s.merchantId)).map((r) => [r.action, r.detail])).toEqual([
      ["callback_url_changed", "http://127.0.0.1:9/callbacks"],
      ["callback_url_changed", "removed"],
    ]);
  });

  it("records a payout created through the API under its key and client address", async () => {
    const body = JSON.stringify(withdrawalBody({ amount: "0.02" }));
    const response = await requestContextStorage().run(
      { requestId: "audit", peerAddress: "203.0.113.77" },
      () =>
        withdrawRoute(
          new Request("http://kassa.test/api/v2/withdrawal/crypto", {
            method: "POST",
            headers: {
              "content-type": "application/json",
              "x-processing-key": shop.key,
              "x-processing-signature": createHmac("sha512", shop.secret).update(body).digest("hex"),
            },
            body,
          }),
          { params: Promise.resolve({}) },
        ),
    );
    expect(response.status).toBe(201);
    const { data } = (await response.json()) as { data: { id: number } };
    const rows = (await trail(shop.merchantId)).filter((r) => r.action === "payout_created");
    expect(rows.map((r) => [r.actor, r.userId, r.address, r.detail])).toEqual([
      [`API key ${shop.key}`, null, "203.0.113.77", `withdrawal ${data.id}: 0.02 BTC to ${BTC_ADDRESS}`],
    ]);
  });

  it("records payouts created, approved and declined in the dashboard, and nothing for a refused payout", async () => {
    const s = await makeShop("Approvals");
    await creditSandboxBalance(database.db, {
      merchantId: s.merchantId,
      currency: "BTC",
      amount: parseDecimal("1"),
      isSandbox: true,
    });
    await setWithdrawalLimits(database.db, {
      merchantId: s.merchantId,
      currency: "BTC",
      perWithdrawal: "0.01",
    });
    const [finance] = await database.db
      .insert(users)
      .values({ merchantId: s.merchantId, email: "finance@approvals.example", passwordHash: "unused" })
      .returning({ id: users.id });
    const creator = {
      actor: { kind: "user" as const, userId: s.userId, email: s.email },
      address: "198.51.100.8",
    };
    const approver = {
      actor: { kind: "user" as const, userId: finance!.id, email: "finance@approvals.example" },
      address: "2001:db8::8",
    };
    const create = (amount: string) =>
      createWithdrawal(database.db, {
        ...withdrawalInput(s.merchantId, withdrawalRequest.parse(withdrawalBody({ amount })), pricing),
        createdByUserId: s.userId,
        audit: creator,
      });
    const first = await create("0.05");
    const second = await create("0.06");
    expect([first.status, second.status]).toEqual(["pending", "pending"]);
    await decideWithdrawal(database.db, {
      merchantId: s.merchantId,
      withdrawalId: first.id,
      userId: finance!.id,
      decision: "approve",
      audit: approver,
    });
    await decideWithdrawal(database.db, {
      merchantId: s.merchantId,
      withdrawalId: second.id,
      userId: finance!.id,
      decision: "decline",
      audit: approver,
    });
    // The creator may not decide: refused, and not in the trail.
    const third = await create("0.07");
    await expect(
      decideWithdrawal(database.db, {
        merchantId: s.merchantId,
        withdrawalId: third.id,
        userId: s.userId,
        decision: "approve",
        audit: creator,
      }),
    ).rejects.toMatchObject({ code: "forbidden" });
    // More than the balance: refused, nothing written.
    expect(await fieldsOf(create("5"))).toHaveProperty("amount");
    const rows = await trail(s.merchantId);
    expect(rows.map((r) => [r.action, r.actor, r.address, r.detail])).toEqual([
      ["payout_created", s.email, "198.51.100.8", `withdrawal ${first.id}: 0.05 BTC to ${BTC_ADDRESS}`],
      ["payout_created", s.email, "198.51.100.8", `withdrawal ${second.id}: 0.06 BTC to ${BTC_ADDRESS}`],
      ["payout_approved", "finance@approvals.example", "2001:db8::8", `withdrawal ${first.id}`],
      ["payout_declined", "finance@approvals.example", "2001:db8::8", `withdrawal ${second.id}`],
      ["payout_created", s.email, "198.51.100.8", `withdrawal ${third.id}: 0.07 BTC to ${BTC_ADDRESS}`],
    ]);
  });

  it("filters by action and actor, pages newest first, and keeps each merchant to its own trail", async () => {
    const s = await makeShop("Paged");
    const other = await makeShop("Other");
    for (let i = 0; i < 5; i++)
      await recordAuditEntry(database.db, {
        merchantId: s.merchantId,
        actor: { kind: "api_key", key: `pk_test${i}` },
        action: "api_key_created",
        detail: `key ${i}`,
      });
    await recordAuditEntry(database.db, {
      merchantId: s.merchantId,
      actor: { kind: "cli" },
      action: "limit_changed",
    });
    await recordAuditEntry(database.db, {
      merchantId: other.merchantId,
      actor: owner,
      action: "api_key_created",
    });

    const page1 = await listAuditEntries(database.db, {
      merchantId: s.merchantId,
      filter: { action: "api_key_created" },
      page: 1,
      pageSize: 2,
    });
    expect(page1.entries.map((e) => e.detail)).toEqual(["key 4", "key 3"]);
    expect(page1.hasMore).toBe(true);
    const page3 = await listAuditEntries(database.db, {
      merchantId: s.merchantId,
      filter: { action: "api_key_created" },
      page: 3,
      pageSize: 2,
    });
    expect(page3).toMatchObject({ hasMore: false, entries: [{ detail: "key 0" }] });

    const byActor = await listAuditEntries(database.db, {
      merchantId: s.merchantId,
      filter: { actor: "OPERATOR" },
      page: 1,
      pageSize: 50,
    });
    expect(byActor.entries.map((e) => e.action)).toEqual(["limit_changed"]);
    // "%" is a character, not a pattern.
    expect(
      (
        await listAuditEntries(database.db, {
          merchantId: s.merchantId,
          filter: { actor: "%" },
          page: 1,
          pageSize: 50,
        })
      ).entries,
    ).toEqual([]);
    const everything = await listAuditEntries(database.db, {
      merchantId: s.merchantId,
      filter: {},
      page: 1,
      pageSize: 50,
    });
    expect(everything.entries).toHaveLength(6);
    const future = await listAuditEntries(database.db, {
      merchantId: s.merchantId,
      filter: { from: new Date(Date.now() + 3_600_000) },
      page: 1,
      pageSize: 50,
    });
    expect(future.entries).toEqual([]);
  });

  it("refuses an unreadable filter with field errors", () => {
    expect(() => parseAuditFilter(new URLSearchParams("action=drop_tables"))).toThrow(
      expect.objectContaining({
        code: "validation_failed",
        fields: { action: "Choose one of the listed actions." },
      }),
    );
    expect(() => parseAuditFilter(new URLSearchParams("from=yesterday"))).toThrow(
      expect.objectContaining({ fields: { from: "Enter a date such as 2026-11-24." } }),
    );
    expect(() => parseAuditFilter(new URLSearchParams("page=0"))).toThrow(
      expect.objectContaining({ fields: { page: "The page is a whole number from 1." } }),
    );
    expect(parseAuditFilter(new URLSearchParams("action=sign_in&page=2&from=2026-11-01"))).toEqual({
      filter: { action: "sign_in", actor: undefined, from: new Date("2026-11-01T00:00:00Z"), to: undefined },
      page: 2,
    });
  });

  it("exports CSV whose cells a spreadsheet never evaluates", () => {
    const csv = auditEntriesCsv([
      {
        id: 7,
        occurredAt: new Date("2026-11-24T01:02:03Z"),
        actor: '=HYPERLINK("http://evil")',
        address: null,
        action: "api_key_created",
        detail: '@SUM(1) "quoted"',
      },
    ]);
    expect(csv).toBe(
      '"id","time","actor","address","action","detail"\r\n' +
        '"7","2026-11-24T01:02:03.000Z","\'=HYPERLINK(""http://evil"")","","api_key_created","\'@SUM(1) ""quoted"""\r\n',
    );
  });
});
