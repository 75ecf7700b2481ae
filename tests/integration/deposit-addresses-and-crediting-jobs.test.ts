import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { takeAddress } from "@/lib/addresses/take-address";
import { mineSandboxBlocks } from "@/lib/chain/sandbox/mine-blocks";
import { queryRows } from "@/lib/db/client";
import { deposits, emails, transactions } from "@/lib/db/schema";
import { creditDeposit } from "@/lib/deposits/credit-deposit";
import { loadInvoiceById } from "@/lib/invoices/load-invoice";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { claimJobs, defaultBackoffSeconds, runDueJobs } from "@/lib/jobs/runner";
import { listBalances } from "@/lib/ledger/list-balances";
import { queueEmail } from "@/lib/mail/queue-email";
import { sendQueuedEmail } from "@/lib/mail/send-email";
import { createMerchant } from "@/lib/merchants/create-merchant";
import { parseDecimal } from "@/lib/money";
import { testClock } from "../support/clock";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { confirm, createFixedInvoice, handlers, pay, pricing, settings, testKeys } from "../support/invoices";
import { ledgerInvariants } from "../support/ledger";
import { type Mail, startSmtpServer } from "../support/smtp";

describe(`permanent deposit addresses on ${testDriver}`, () => {
  let database: TestDatabase;
  let merchantId: number;
  const balance = async (currency: string) =>
    (await listBalances(database.db, merchantId)).find((b) => b.currency === currency)!.balance;

  beforeAll(async () => {
    database = await createTestDatabase();
    merchantId = (
      await createMerchant(database.db, database.box, {
        name: "Dep",
        email: "dep@example.com",
        password: "long password 1",
      })
    ).merchantId;
  });
  afterAll(() => database.drop());

  it("gives one address per customer and currency, also to racing first requests", async () => {
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        takeAddress(database.db, testKeys, { merchantId, foreignId: "user:1", currency: "BTC" }),
      ),
    );
    expect(new Set(results.map((r) => r.address)).size).toBe(1);
    const eth = await takeAddress(database.db, testKeys, {
      merchantId,
      foreignId: "user:1",
      currency: "ETH",
    });
    const other = await takeAddress(database.db, testKeys, {
      merchantId,
      foreignId: "user:2",
      currency: "BTC",
    });
    expect(eth.address).toMatch(/^0x/);
    expect(other.address).not.toBe(results[0]!.address);
  });

  it("turns each payment into a deposit transaction credited on confirmation, minus the fee", async () => {
    const address = await takeAddress(database.db, testKeys, {
      merchantId,
      foreignId: "user:3",
      currency: "LTC",
    });
    const before = await balance("LTC");
    for (const amount of ["1", "2.5"]) {
      await pay(database.db, { address: { address: address.address, tag: "", currency: "LTC" } }, amount);
    }
    const seen = await database.db.select().from(transactions).where(eq(transactions.type, "deposit"));
    expect(seen.filter((t) => t.status === "processing")).toHaveLength(2);
    await confirm(database.db, "LTC");
    const confirmed = await database.db.select().from(transactions).where(eq(transactions.type, "deposit"));
    expect(confirmed.every((t) => t.status === "confirmed")).toBe(true);
    // 0.5% deposit fee on 3.5 LTC = 0.0175 LTC
    expect(await balance("LTC")).toBe(before + parseDecimal("3.5") - parseDecimal("0.0175"));
  });

  it("converts deposits of an address with convert_to at the rate of the moment", async () => {
    const address = await takeAddress(database.db, testKeys, {
      merchantId,
      foreignId: "user:4",
      currency: "ETH",
      convertTo: "EUR",
    });
    await expect(
      takeAddress(database.db, testKeys, {
        merchantId,
        foreignId: "user:4",
        currency: "ETH",
        convertTo: "USD",
      }),
    ).rejects.toMatchObject({ fields: { convert_to: expect.any(String) } });
    const before = await balance("EUR");
    await pay(database.db, { address: { address: address.address, tag: "", currency: "ETH" } }, "1");
    await confirm(database.db, "ETH");
    // 1 ETH = 3200 USD = 2962.96 EUR mid; minus the 0.5% spread and the 0.5% fee
    const credited = (await balance("EUR")) - before;
    expect(credited > parseDecimal("2930") && credited < parseDecimal("2950")).toBe(true);
    expect(await ledgerInvariants(database.db)).toMatchObject({
      nonZeroCurrencies: [],
      accountsNotMatchingEntries: 0,
    });
  });
});

describe(`durable jobs and exactly-once crediting on ${testDriver}`, () => {
  let database: TestDatabase;
  let merchantId: number;

  beforeAll(async () => {
    database = await createTestDatabase({ isPersistent: true });
    merchantId = (
      await createMerchant(database.db, database.box, {
        name: "Jobs",
        email: "jobs@example.com",
        password: "long password 1",
      })
    ).merchantId;
  });
  afterAll(() => database.drop());

  it("credits a deposit once even when the crediting runs twice at the same time", async () => {
    const invoice = await createFixedInvoice(database.db, merchantId, "BTC");
    await pay(database.db, invoice, invoice.invoice.senderAmount!);
    await mineSandboxBlocks(database.db, { currency: "BTC", count: 5 });
    const [deposit] = await database.db.select().from(deposits).where(eq(deposits.transactionId, invoice.id));
    const results = await Promise.all([
      creditDeposit(database.db, { depositId: deposit!.id, pricing }),
      creditDeposit(database.db, { depositId: deposit!.id, pricing }),
      creditDeposit(database.db, { depositId: deposit!.id, pricing }),
    ]);
    expect(results.filter(Boolean)).toHaveLength(1);
    const journals = await queryRows<{ count: number }>(
      database.db,
      sql`select count(*)::int as count from journals where transaction_id = ${invoice.id}`,
    );
    expect(journals[0]!.count).toBe(1);
    await runDueJobs(database.db, handlers); // the queued scan finds nothing left to credit
    expect((await loadInvoiceById(database.db, invoice.id))!.status).toBe("confirmed");
  });

  it("finishes a confirmation after a restart in the middle of it", async () => {
    const invoice = await createFixedInvoice(database.db, merchantId, "ETH");
    await pay(database.db, invoice, invoice.invoice.senderAmount!);
    await mineSandboxBlocks(database.db, { currency: "ETH", count: 12 });
    // The scan job is queued; a worker claims it and dies before finishing.
    const clock = testClock();
    const claimed = await claimJobs({
      db: database.db,
      queues: ["chain.scan"],
      limit: 5,
      workerId: "doomed",
      leaseSeconds: 60,
      clock,
    });
    expect(claimed.map((j) => j.queue)).toContain("chain.scan");

    database = await database.reopen();
    // Half the lease later (the test clock also runs with real time, so no margin of a second).
    clock.advance(30);
    await runDueJobs(database.db, handlers, { clock });
    expect((await loadInvoiceById(database.db, invoice.id))!.status).toBe("processing"); // still leased
    clock.advance(31); // the lease runs out
    await runDueJobs(database.db, handlers, { clock });
    const settled = (await loadInvoiceById(database.db, invoice.id))!;
    expect(settled.status).toBe("confirmed");
    expect(await ledgerInvariants(database.db)).toMatchObject({
      nonZeroCurrencies: [],
      accountsNotMatchingEntries: 0,
    });
  });

  it("expires after a restart an invoice whose timer ran out while the process was down", async () => {
    const clock = testClock();
    const invoice = await createFixedInvoice(database.db, merchantId, "BTC", {}, { ...settings, clock });
    database = await database.reopen(); // a restart: the database is all that is left of the invoice
    clock.advance(settings.timerSeconds + 1); // its deadline passed while the process was down
    database = await database.reopen(); // "back up"
    await runDueJobs(database.db, handlers, { clock });
    expect((await loadInvoiceById(database.db, invoice.id))!.invoice.statusReason).toBe("expired");
  });

  it("retries a failing job with backoff and gives up after its attempts", async () => {
    let calls = 0;
    const failing = {
      "test.fail": async () => {
        calls++;
        throw new Error("receiver down");
      },
    };
    const clock = testClock();
    await enqueueJob(database.db, { queue: "test.fail", maxAttempts: 2 });
    await runDueJobs(database.db, failing, { clock });
    expect(calls).toBe(1);
    const [job] = await queryRows<{ status: string; attempts: number; last_error: string; later: boolean }>(
      database.db,
      sql`select status, attempts, last_error, run_at > now() as later from jobs where queue = 'test.fail'`,
    );
    expect(job).toMatchObject({ status: "queued", attempts: 1, last_error: "receiver down", later: true });
    clock.advance(defaultBackoffSeconds(1));
    await runDueJobs(database.db, failing, { clock });
    const [final] = await queryRows<{ status: string }>(
      database.db,
      sql`select status from jobs where queue = 'test.fail'`,
    );
    expect(final!.status).toBe("failed");
    expect(calls).toBe(2);
  });
});

describe(`e-mail over SMTP on ${testDriver}`, () => {
  let database: TestDatabase;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let port: number;
  let received: Mail[];

  beforeAll(async () => {
    database = await createTestDatabase();
    smtp = await startSmtpServer();
    port = smtp.port;
    received = smtp.received;
  });
  afterAll(async () => {
    await smtp.close();
    await database.drop();
  });

  it("delivers a queued e-mail through a real SMTP server, once", async () => {
    const id = await queueEmail(database.db, {
      merchantId: null,
      kind: "receipt",
      recipient: "buyer@example.com",
      subject: "Payment received",
      body: "Thank you. Your payment of 0.1 BTC is confirmed.",
    });
    const mail = { smtpUrl: `smtp://127.0.0.1:${port}`, from: "Kassa <no-reply@kassa.test>" };
    await sendQueuedEmail(database.db, id, mail);
    await sendQueuedEmail(database.db, id, mail); // a repeated job sends nothing more
    expect(received).toHaveLength(1);
    expect(received[0]!.to).toBe("buyer@example.com");
    expect(received[0]!.data).toContain("Subject: Payment received");
    expect(received[0]!.data).toContain("Your payment of 0.1 BTC is confirmed.");
    const [row] = await database.db.select().from(emails).where(eq(emails.id, id));
    expect(row!.status).toBe("sent");
  });

  it("keeps the message and fails the job when the SMTP server is unreachable, so it is retried", async () => {
    const id = await queueEmail(database.db, {
      merchantId: null,
      kind: "receipt",
      recipient: "buyer@example.com",
      subject: "Retry me",
      body: "body",
    });
    await expect(
      sendQueuedEmail(database.db, id, { smtpUrl: "smtp://127.0.0.1:1", from: "k@kassa.test" }),
    ).rejects.toThrow();
    const [row] = await database.db.select().from(emails).where(eq(emails.id, id));
    expect(row).toMatchObject({ status: "queued", attempts: 1 });
    expect(row!.lastError).toBeTruthy();
  });

  it("stores messages for the outbox when no SMTP server is configured", async () => {
    const id = await queueEmail(database.db, {
      merchantId: null,
      kind: "receipt",
      recipient: "a@example.com",
      subject: "s",
      body: "b",
    });
    await sendQueuedEmail(database.db, id, { smtpUrl: undefined, from: "k@kassa.test" });
    const [row] = await database.db.select().from(emails).where(eq(emails.id, id));
    expect(row!.status).toBe("stored");
  });
});
