import { createHmac } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setCallbackUrl } from "@/lib/callbacks/set-callback-url";
import { connectEvmNetwork, type EvmNetwork } from "@/lib/chain/evm/evm-network";
import { watchEvmChain } from "@/lib/chain/evm/watch-evm-chain";
import { emails } from "@/lib/db/schema";
import { callbackHandlers, jobHandlers } from "@/lib/host/job-handlers";
import { runDueJobs } from "@/lib/jobs/runner";
import { createMerchant } from "@/lib/merchants/create-merchant";
import { type AnvilNode, deployToken, mineBlocks, payToken, startTestAnvil } from "../support/anvil";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { createFixedInvoice, pricing } from "../support/invoices";
import { startReceiver } from "../support/receiver";
import { startSmtpServer } from "../support/smtp";

const CONFIRMATIONS = 2;
const TOKEN_UNITS_PER_LEDGER_UNIT = 100n; // a 6-decimal token against the 8-digit ledger

/**
 * A payment on the real chain reaches the merchant and the customer the way a sandbox payment
 * does: signed callbacks over real HTTP to a local receiver, and the receipt over real SMTP.
 */
describe(`callbacks and e-mail for a payment on a real anvil node (${testDriver})`, () => {
  let node: AnvilNode;
  let database: TestDatabase;
  let network: EvmNetwork;
  let usdt: Address;
  let merchant: Awaited<ReturnType<typeof createMerchant>>;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;

  const watch = () => watchEvmChain(database.db, { network, pricing });
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
  const bodiesFor = (invoiceId: number) =>
    receiver.received
      .map((request) => ({ request, body: JSON.parse(request.body.toString("utf8")) }))
      .filter(({ body }) => body.id === invoiceId);

  beforeAll(async () => {
    node = await startTestAnvil();
    usdt = await deployToken(node.url, { symbol: "USDT", decimals: 6, supply: 10n ** 15n });
    database = await createTestDatabase();
    receiver = await startReceiver();
    smtp = await startSmtpServer();
    merchant = await createMerchant(database.db, database.box, {
      name: "Chain hooks",
      email: "chain-hooks@example.com",
      password: "long password 1",
    });
    await setCallbackUrl(database.db, {
      merchantId: merchant.merchantId,
      url: receiver.url(),
      mode: "sandbox",
    });
    network = await connectEvmNetwork({
      rpcUrl: node.url,
      tokens: { USDTE: usdt },
      confirmations: CONFIRMATIONS,
    });
    await watch();
  });
  afterAll(async () => {
    await smtp?.close();
    await receiver?.close();
    await database?.drop();
    await node?.stop();
  });

  it("sends signed processing and confirmed callbacks and the customer's receipt", async () => {
    const invoice = await createFixedInvoice(database.db, merchant.merchantId, "USDTE");
    const receipt = await payToken(node.url, {
      token: usdt,
      to: invoice.address!.address,
      value: invoice.invoice.senderAmount! / TOKEN_UNITS_PER_LEDGER_UNIT,
    });
    await watch();
    await deliver();
    await mineBlocks(node.url, CONFIRMATIONS);
    await watch();
    await deliver();

    const delivered = bodiesFor(invoice.id);
    const events = delivered.map(({ request }) => request.headers["x-kassa-event"]);
    expect(events).toEqual(["invoice.pending", "invoice.processing", "invoice.confirmed"]);
    expect(delivered.at(-1)!.body.status).toBe("confirmed");
    for (const { request } of delivered) {
      const expected = createHmac("sha512", merchant.apiKey.secret).update(request.body).digest("hex");
      expect(request.headers["x-processing-signature"]).toBe(expected);
    }
    // The payment they report is the transaction on the chain, with its exact amount.
    const final = delivered.at(-1)!.body;
    expect(JSON.stringify(final)).toContain(receipt.transactionHash);

    const [sent] = await database.db.select().from(emails).where(eq(emails.transactionId, invoice.id));
    expect(sent).toMatchObject({ status: "sent", recipient: "buyer@example.com" });
    expect(smtp.received.some((mail) => mail.to === "buyer@example.com")).toBe(true);
  });
});
