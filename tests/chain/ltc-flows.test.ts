import { createHmac } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { takeAddress } from "@/lib/addresses/take-address";
import { setCallbackUrl } from "@/lib/callbacks/set-callback-url";
import { connectUtxoNetwork, type UtxoNetwork } from "@/lib/chain/utxo/utxo-network";
import { withUtxoNetwork } from "@/lib/chain/utxo/utxo-offering";
import { watchUtxoChain } from "@/lib/chain/utxo/watch-utxo-chain";
import { checkoutView } from "@/lib/checkout/checkout-view";
import { decideReview } from "@/lib/compliance/decide-review";
import { configureOffering } from "@/lib/currencies/offering";
import { queryRows } from "@/lib/db/client";
import { callbacks, complianceReviews, emails, transactions } from "@/lib/db/schema";
import { callbackHandlers, jobHandlers } from "@/lib/host/job-handlers";
import { createInvoice } from "@/lib/invoices/create-invoice";
import { fixInvoiceCurrency } from "@/lib/invoices/fix-invoice-currency";
import { loadInvoiceById } from "@/lib/invoices/load-invoice";
import { runDueJobs } from "@/lib/jobs/runner";
import { listBalances } from "@/lib/ledger/list-balances";
import { createMerchant } from "@/lib/merchants/create-merchant";
import { parseDecimal } from "@/lib/money";
import { describeTransaction } from "@/lib/transactions/describe-transaction";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { createFixedInvoice, invoiceRequest, pricing, settings, testKeys } from "../support/invoices";
import { NODE_START_MS, startTestLitecoind, type TestLitecoind } from "../support/litecoind";
import { startReceiver } from "../support/receiver";
import { startSmtpServer } from "../support/smtp";

const CONFIRMATIONS = 2;

/**
 * A Litecoin payment reaches the merchant and the customer as a sandbox payment does: signed
 * callbacks with the real txid over real HTTP, the receipt over real SMTP, transactions/info and the
 * live checkout with the node's confirmations, and compliance screening of the sender.
 */
describe(`callbacks, mail, transactions/info and screening on litecoind (${testDriver})`, () => {
  let customer: TestLitecoind;
  let database: TestDatabase;
  let network: UtxoNetwork;
  let merchant: Awaited<ReturnType<typeof createMerchant>>;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let denylist: string;

  const watch = () => watchUtxoChain(database.db, { network, pricing });
  const deliver = async () => {
    await runDueJobs(
      database.db,
      callbackHandlers({ mode: "sandbox", timeoutMs: 2_000, scheduleSeconds: [0, 0, 0], box: database.box }),
    );
    await runDueJobs(
      database.db,
      jobHandlers({
        pricing,
        mail: { smtpUrl: `smtp://127.0.0.1:${smtp.port}`, from: "k@kassa.test" },
      }),
    );
  };
  /** The address the transaction's first input spent from, read from the node: the sender screening judges. */
  const senderOf = async (txid: string) => {
    const spent = (
      await customer.rpc<{ vin: { txid: string; vout: number }[] }>("getrawtransaction", [txid, true])
    ).vin[0]!;
    const previous = await customer.transaction(spent.txid);
    return previous.vout.find((o) => o.n === spent.vout)!.scriptPubKey.addresses![0]!;
  };

  beforeAll(async () => {
    customer = await startTestLitecoind();
    database = await createTestDatabase();
    receiver = await startReceiver();
    smtp = await startSmtpServer();
    merchant = await createMerchant(database.db, database.box, {
      name: "Litecoin hooks",
      email: "ltc-hooks@example.com",
      password: "long password 1",
    });
    await setCallbackUrl(database.db, {
      merchantId: merchant.merchantId,
      url: receiver.url(),
      mode: "sandbox",
    });
    denylist = path.join(mkdtempSync(path.join(tmpdir(), "kassa-ltc-screening-")), "denylist.txt");
    writeFileSync(denylist, "# sanctions\n");
    process.env.KASSA_SCREENING_DENYLIST = denylist;
    const config = { rpcUrl: customer.url, confirmations: CONFIRMATIONS };
    network = await connectUtxoNetwork("LTC", config, "sandbox");
    configureOffering(
      withUtxoNetwork(
        {
          mode: "sandbox",
          realNetworks: {},
          realCurrencies: [],
          contracts: {},
          chainIds: {},
          decimals: {},
          confirmations: {},
        },
        { utxo: { LTC: config } },
        "LTC",
        network,
      ),
    );
    await watch();
  }, NODE_START_MS);
  afterAll(async () => {
    configureOffering(undefined);
    delete process.env.KASSA_SCREENING_DENYLIST;
    await smtp?.close();
    await receiver?.close();
    await database?.drop();
    await customer?.stop();
  });

  it("sends signed callbacks carrying the real txid, the receipt, and the node's confirmations", async () => {
    const invoice = await createFixedInvoice(database.db, merchant.merchantId, "LTC");
    const txid = await customer.pay(invoice.address!.address, invoice.invoice.senderAmount!);
    await watch();
    await deliver();
    // Seen in the mempool: processing on the checkout, with no confirmation yet.
    const record = async () => (await loadInvoiceById(database.db, invoice.id))!;
    const checkout = await checkoutView(database.db, await record(), { pricing });
    expect(checkout.payments).toMatchObject([{ txid, confirmations: 0, is_confirmed: false }]);
    expect(checkout.confirmations_required).toBe(CONFIRMATIONS);
    const reported = async () =>
      (await describeTransaction(database.db, invoice.id)).transactions.find((t) => t.type === "deposit");
    expect(await reported()).toMatchObject({ txid, confirmations: "0" });

    await customer.mine(1);
    await watch();
    expect((await reported())!.confirmations).toBe(String((await customer.transaction(txid)).confirmations));
    await customer.mine(CONFIRMATIONS - 1);
    await watch();
    await deliver();

    const delivered = receiver.received
      .map((request) => ({ request, body: JSON.parse(request.body.toString("utf8")) }))
      .filter(({ body }) => body.id === invoice.id);
    expect(delivered.map(({ request }) => request.headers["x-kassa-event"])).toEqual([
      "invoice.pending",
      "invoice.processing",
      "invoice.confirmed",
    ]);
    for (const { request } of delivered)
      expect(request.headers["x-processing-signature"]).toBe(
        createHmac("sha512", merchant.apiKey.secret).update(request.body).digest("hex"),
      );
    expect(JSON.stringify(delivered.at(-1)!.body)).toContain(txid);
    const info = await reported();
    expect(info).toMatchObject({ txid, confirmations: String(CONFIRMATIONS) });
    expect(info!.riskscore).toBeDefined();
    const [sent] = await database.db.select().from(emails).where(eq(emails.transactionId, invoice.id));
    expect(sent).toMatchObject({ status: "sent", recipient: "buyer@example.com" });
  });

  it("screens the sender read from the node: a denylisted one is held at score 100, credited once released", async () => {
    const address = await takeAddress(database.db, testKeys, {
      merchantId: merchant.merchantId,
      foreignId: "screened",
      currency: "LTC",
    });
    const txid = await customer.pay(address.address, parseDecimal("0.5"));
    const sender = await senderOf(txid);
    writeFileSync(denylist, `# sanctions\n${sender}\n`);
    await watch();
    const [recorded] = await queryRows<{ sender_address: string }>(
      database.db,
      sql`select sender_address from chain_transactions where txid = ${txid}`,
    );
    expect(recorded!.sender_address).toBe(sender);
    await customer.mine(CONFIRMATIONS);
    await watch();
    const [deposit] = await database.db
      .select()
      .from(transactions)
      .where(and(eq(transactions.merchantId, merchant.merchantId), eq(transactions.type, "deposit")));
    const held = await describeTransaction(database.db, deposit!.id);
    expect(held.status).toBe("not_confirmed");
    expect(held.transactions[0]).toMatchObject({ txid, riskscore: "100" });
    const ltc = async () =>
      (await listBalances(database.db, merchant.merchantId)).find((b) => b.currency === "LTC")?.balance ?? 0n;
    expect(await ltc()).toBe(0n);
    const [coin] = await queryRows<{ status: string }>(
      database.db,
      sql`select status from utxo_coins where txid = ${txid}`,
    );
    expect(coin!.status).toBe("pending");

    const [review] = await database.db
      .select()
      .from(complianceReviews)
      .where(eq(complianceReviews.transactionId, deposit!.id));
    await decideReview(database.db, {
      merchantId: merchant.merchantId,
      reviewId: review!.id,
      userId: null,
      decision: "release",
      audit: { actor: { kind: "cli" } },
      pricing,
    });
    // 0.5 LTC less the 0.5 % deposit fee; the coin is spendable with the credit.
    expect(await ltc()).toBe(parseDecimal("0.5") - (parseDecimal("0.5") * 5_000n) / 1_000_000n);
    const [released] = await queryRows<{ status: string }>(
      database.db,
      sql`select status from utxo_coins where txid = ${txid}`,
    );
    expect(released!.status).toBe("spendable");
    const events = await database.db
      .select({ event: callbacks.event })
      .from(callbacks)
      .where(eq(callbacks.transactionId, deposit!.id))
      .orderBy(asc(callbacks.id));
    expect(events.map((e) => e.event)).toEqual([
      "deposit.processing",
      "deposit.verifying",
      "deposit.confirmed",
    ]);
  });

  it("takes the real payment after the customer switched the invoice from a sandbox coin to LTC", async () => {
    const created = await createInvoice(database.db, {
      merchantId: merchant.merchantId,
      request: invoiceRequest(),
      settings,
    });
    const choose = (currency: string) =>
      fixInvoiceCurrency(database.db, { token: created.invoice.token, currency, settings, keys: testKeys });
    const inBtc = await choose("BTC");
    expect(inBtc.address!.address).toMatch(/^tb1q/); // BTC stays on the sandbox chain here
    const inLtc = await choose("LTC");
    expect(inLtc.invoice.senderCurrency).toBe("LTC");
    expect(inLtc.address!.address).toMatch(/^rltc1q/);
    const txid = await customer.pay(inLtc.address!.address, inLtc.invoice.senderAmount!);
    await watch();
    expect((await loadInvoiceById(database.db, created.id))!.status).toBe("processing");
    await customer.mine(CONFIRMATIONS);
    await watch();
    const settled = (await loadInvoiceById(database.db, created.id))!;
    expect(settled.status).toBe("confirmed");
    expect(settled.invoice.statusReason).toBe("paid");
    const payments = (await describeTransaction(database.db, created.id)).transactions.filter(
      (t) => t.type === "deposit",
    );
    expect(payments).toMatchObject([{ txid, confirmations: String(CONFIRMATIONS) }]);
  });
});
