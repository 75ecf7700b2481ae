import { sql } from "drizzle-orm";
import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectEvmNetwork, type EvmNetwork } from "@/lib/chain/evm/evm-network";
import { watchEvmChain } from "@/lib/chain/evm/watch-evm-chain";
import type { Clock } from "@/lib/clock";
import { queryRows } from "@/lib/db/client";
import { EXPIRY_RECHECK_SECONDS } from "@/lib/invoices/expire-invoice";
import { loadInvoiceById } from "@/lib/invoices/load-invoice";
import { runDueJobs } from "@/lib/jobs/runner";
import {
  type AnvilNode,
  deployToken,
  mineBlocks,
  payToken,
  startTestAnvil,
  testClientFor,
} from "../support/anvil";
import { testClock } from "../support/clock";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { createFixedInvoice, handlers, pricing, settings } from "../support/invoices";
import { createTestMerchant } from "../support/merchants";

const CONFIRMATIONS = 3;
const TOKEN_UNITS_PER_LEDGER_UNIT = 100n;

describe(`a payment mined before the deadline, read after watcher downtime (${testDriver})`, () => {
  let node: AnvilNode;
  let database: TestDatabase;
  let network: EvmNetwork;
  let merchantId: number;
  let usdt: Address;

  const watch = (clock?: Clock) => watchEvmChain(database.db, { network, pricing, clock });

  beforeAll(async () => {
    node = await startTestAnvil();
    usdt = await deployToken(node.url, { symbol: "USDT", decimals: 6, supply: 10n ** 15n });
    database = await createTestDatabase();
    merchantId = await createTestMerchant(database, "Downtime");
    network = await connectEvmNetwork({
      rpcUrl: node.url,
      tokens: { USDTE: usdt },
      confirmations: CONFIRMATIONS,
    });
    await watch();
  });
  afterAll(async () => {
    await database?.drop();
    await node?.stop();
  });

  it("is paid on time at the locked rate, and the expiry job waits for the watcher", async () => {
    const clock = testClock();
    const invoice = await createFixedInvoice(database.db, merchantId, "USDTE");
    const due = invoice.invoice.senderAmount!;
    // The watcher is down from here: the customer pays before the deadline.
    const receipt = await payToken(node.url, {
      token: usdt,
      to: invoice.address!.address,
      value: due / TOKEN_UNITS_PER_LEDGER_UNIT,
    });
    const minedAt = (await node.publicClient.getBlock({ blockNumber: receipt.blockNumber })).timestamp;
    expect(BigInt(invoice.invoice.expiresAt!.getTime()) / 1000n > minedAt).toBe(true);

    // The deadline passes on the chain and for Kassa while the watcher is still down.
    const past = settings.timerSeconds + 60;
    await testClientFor(node.url).increaseTime({ seconds: past });
    await mineBlocks(node.url, CONFIRMATIONS);
    clock.advance(past);
    await runDueJobs(database.db, handlers, { clock });
    const waiting = (await loadInvoiceById(database.db, invoice.id))!;
    expect(waiting.status).toBe("pending"); // not failed: the watcher has not read up to the deadline
    const [requeued] = await queryRows<{ status: string }>(
      database.db,
      sql`select status from jobs where dedupe_key = ${`invoice-expiry:${invoice.id}:watcher-behind`}`,
    );
    expect(requeued!.status).toBe("queued");

    // The watcher comes back after the deadline: it reads the payment, judged by its block's time.
    await watch(clock);
    const [deposit] = await queryRows<{
      status: string;
      is_late: boolean;
      locked_amount: string;
      amount: string;
    }>(
      database.db,
      sql`select status, is_late, locked_amount::text, amount::text from deposits where transaction_id = ${invoice.id}`,
    );
    expect(deposit).toMatchObject({ status: "credited", is_late: false });
    expect(deposit!.locked_amount).toBe(deposit!.amount); // all of it at the invoice's locked rate
    const paid = (await loadInvoiceById(database.db, invoice.id))!;
    expect(paid.status).toBe("confirmed");
    expect(paid.invoice.statusReason).toBe("paid");

    clock.advance(EXPIRY_RECHECK_SECONDS);
    await runDueJobs(database.db, handlers, { clock });
    expect((await loadInvoiceById(database.db, invoice.id))!.status).toBe("confirmed");
  });

  it("still expires an unpaid invoice once the watcher has read past its deadline", async () => {
    const clock = testClock();
    const invoice = await createFixedInvoice(database.db, merchantId, "USDTE");
    const past = settings.timerSeconds + 60;
    await testClientFor(node.url).increaseTime({ seconds: past });
    await mineBlocks(node.url, 1);
    clock.advance(past);
    await watch(clock);
    await runDueJobs(database.db, handlers, { clock });
    const expired = (await loadInvoiceById(database.db, invoice.id))!;
    expect(expired.status).toBe("failed");
    expect(expired.invoice.statusReason).toBe("expired");
  });
});
