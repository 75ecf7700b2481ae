import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import type { Pool } from "pg";
import type { Address, Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { takeAddress } from "@/lib/addresses/take-address";
import { connectEvmNetwork, type EvmNetwork } from "@/lib/chain/evm/evm-network";
import { type RemovedPayment, settleRemovedPayment } from "@/lib/chain/evm/settle-removed-payment";
import { watchEvmChain } from "@/lib/chain/evm/watch-evm-chain";
import { bookComplianceRefund } from "@/lib/compliance/book-compliance-refund";
import { bookEvmComplianceRefund } from "@/lib/compliance/book-evm-compliance-refund";
import { decideReview } from "@/lib/compliance/decide-review";
import { listReviews } from "@/lib/compliance/list-reviews";
import { queryRows } from "@/lib/db/client";
import { chainIncidents, chainTransactions, complianceReviews, deposits } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import { listBalances } from "@/lib/ledger/list-balances";
import { parseDecimal } from "@/lib/money";
import { describeTransaction } from "@/lib/transactions/describe-transaction";
import { type AnvilNode, customer, mineBlocks, reorg, startTestAnvil, walletFor } from "../support/anvil";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { pricing, testKeys } from "../support/invoices";
import { ledgerInvariants } from "../support/ledger";
import { createTestMerchant, fieldsOf } from "../support/merchants";
import { waitUntil } from "../support/wait";

const WEI_PER_LEDGER_UNIT = 10n ** 10n;
const CONFIRMATIONS = 2;
/** Deeper than the confirmations: a held or decided payment's block goes. */
const DEEP = 4;
const NOTHING_HELD =
  "A reorganisation removed this payment's block before it was rejected: no coins arrived and nothing is held, so there is nothing to refund.";
const COINS_GONE =
  "A reorganisation removed this payment's block after it was rejected: its coins are no longer at Kassa's address (see `cli chain incidents`), so nothing is refunded unless the payment is mined again.";

describe(`held payments a reorganisation removed, on a real anvil node (${testDriver})`, () => {
  let node: AnvilNode;
  let database: TestDatabase;
  let network: EvmNetwork;
  let merchantId: number;
  let counter = 0;

  const watch = () => watchEvmChain(database.db, { network, pricing });
  const decide = (reviewId: number, decision: "release" | "reject") =>
    decideReview(database.db, {
      merchantId,
      reviewId,
      userId: null,
      decision,
      audit: { actor: { kind: "cli" } },
      pricing,
    });
  /** The operator's refund as the CLI books it on the EVM chain (refused before the node is asked)... */
  const evmRefund = (reviewId: number) =>
    bookEvmComplianceRefund(database.db, {
      network,
      hotWallet: "0x000000000000000000000000000000000000dEaD",
      reviewId,
      txid: `0x${"ab".repeat(32)}`,
      audit: { actor: { kind: "cli" } },
    });
  /** ...and the booking itself, which checks again under its lock (what the node read leads to). */
  const bookRefund = (reviewId: number, sent: bigint) =>
    bookComplianceRefund(database.db, {
      reviewId,
      txid: `0x${String(++counter).padStart(64, "c")}`,
      sent,
      gas: 21_000n,
      audit: { actor: { kind: "cli" } },
    });

  /** platform:compliance_held in ETH, from the entries (not the account's cached balance). */
  const held = async () => {
    const [row] = await queryRows<{ total: string | null }>(
      database.db,
      sql`select sum(e.amount)::text as total from ledger_entries e join ledger_accounts a on a.id = e.account_id
          where a.kind = 'platform:compliance_held' and e.currency = 'ETH'`,
    );
    return parseDecimal(row?.total ?? "0");
  };
  const expectLedgerSound = async () => {
    expect(await held()).toBeGreaterThanOrEqual(0n);
    expect(await ledgerInvariants(database.db)).toEqual({
      nonZeroCurrencies: [],
      accountsNotMatchingEntries: 0,
      negativeMerchantBalances: 0,
    });
  };
  const ethBalance = async () =>
    (await listBalances(database.db, merchantId)).find((b) => b.currency === "ETH")?.balance ?? 0n;

  /** The customer's payment, signed here and kept, so the same transaction can be mined again after a reorganisation. */
  const signPayment = async (to: string, units: bigint): Promise<Hex> => {
    const wallet = walletFor(node.url);
    const request = await wallet.prepareTransactionRequest({
      to: to as Address,
      value: units * WEI_PER_LEDGER_UNIT,
    });
    return wallet.signTransaction(request);
  };
  const broadcast = async (raw: Hex) => {
    const hash = await node.publicClient.sendRawTransaction({ serializedTransaction: raw });
    await node.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 });
  };
  /** The reviews of the payments to `address`, oldest first. */
  const reviewOf = async (address: string) => {
    return database.db
      .select({ reviewId: complianceReviews.id, deposit: deposits })
      .from(complianceReviews)
      .innerJoin(deposits, eq(deposits.id, complianceReviews.depositId))
      .innerJoin(chainTransactions, eq(chainTransactions.id, deposits.chainTransactionId))
      .where(eq(chainTransactions.address, address))
      .orderBy(complianceReviews.id);
  };
  const rowOf = async (reviewId: number) => {
    const decided = await listReviews(database.db, { merchantId, status: "decided" });
    const queued = await listReviews(database.db, { merchantId, status: "held" });
    return [...decided, ...queued].find((row) => row.id === reviewId)!;
  };
  const newAddress = async () =>
    (await takeAddress(database.db, testKeys, { merchantId, foreignId: `c${++counter}`, currency: "ETH" }))
      .address;

  beforeAll(async () => {
    node = await startTestAnvil();
    database = await createTestDatabase();
    merchantId = await createTestMerchant(database, "Reorganised reviews");
    const denylist = path.join(
      mkdtempSync(path.join(tmpdir(), "kassa-evm-reorg-screening-")),
      "denylist.txt",
    );
    writeFileSync(denylist, `${customer.address}\n`);
    process.env.KASSA_SCREENING_DENYLIST = denylist;
    network = await connectEvmNetwork({ rpcUrl: node.url, tokens: {}, confirmations: CONFIRMATIONS });
    await watch();
    // Blocks the watcher has seen below the first payment, so a reorganisation of DEEP blocks finds its fork point.
    await mineBlocks(node.url, DEEP);
    await watch();
  });
  afterAll(async () => {
    delete process.env.KASSA_SCREENING_DENYLIST;
    await database?.drop();
    await node?.stop();
  });

  it("a held payment removed before its decision: reject books nothing, its refund is refused, and mined again it is a new payment to review", async () => {
    const address = await newAddress();
    const raw = await signPayment(address, 1_000_000n); // 0.01 ETH
    await broadcast(raw);
    await mineBlocks(node.url, CONFIRMATIONS);
    await watch();
    const [first] = await reviewOf(address);
    expect(first!.deposit.status).toBe("held");

    await reorg(node.url, DEEP);
    await watch();
    expect((await rowOf(first!.reviewId)).chain_removal).toBe("block_removed");
    expect(await fieldsOf(decide(first!.reviewId, "release"))).toEqual({
      id: "A reorganisation removed this payment's block from the chain: it cannot be credited. Reject it instead.",
    });
    await decide(first!.reviewId, "reject");
    const [deposit] = await database.db.select().from(deposits).where(eq(deposits.id, first!.deposit.id));
    // Nothing arrived: the deposit is unwound, as a seen payment a reorganisation removed.
    expect(deposit!.status).toBe("unwound");
    expect((await describeTransaction(database.db, first!.deposit.transactionId)).status).toBe("cancelled");
    expect(await held()).toBe(0n);
    expect((await rowOf(first!.reviewId)).chain_removal).toBe("nothing_arrived");

    // The defect: this refund used to book, taking platform:compliance_held to -0.01 ETH.
    expect(await fieldsOf(evmRefund(first!.reviewId))).toEqual({ review: NOTHING_HELD });
    expect(await fieldsOf(bookRefund(first!.reviewId, 990_000n))).toEqual({ review: NOTHING_HELD });
    expect(await held()).toBe(0n);
    await expectLedgerSound();

    // The same signed transaction mined again: a new deposit, screened and held again, its own review.
    await broadcast(raw);
    await mineBlocks(node.url, CONFIRMATIONS);
    await watch();
    const reviews = await reviewOf(address);
    expect(reviews).toHaveLength(2);
    const second = reviews[1]!;
    expect(second.deposit.status).toBe("held");
    expect(second.deposit.transactionId).not.toBe(first!.deposit.transactionId);
    expect((await rowOf(second.reviewId)).chain_removal).toBeNull();
    // The first stays closed: it booked nothing and refunds nothing, whatever the chain does now.
    expect(await fieldsOf(bookRefund(first!.reviewId, 990_000n))).toEqual({ review: NOTHING_HELD });
    await decide(second.reviewId, "reject");
    expect(await held()).toBe(1_000_000n);
    await bookRefund(second.reviewId, 990_000n);
    expect(await held()).toBe(0n);
    await expectLedgerSound();
  });

  it("rejected, then released, payments removed after the decision: incidents, no balance moved, refund refused until mined again", async () => {
    const rejectedAddress = await newAddress();
    const releasedAddress = await newAddress();
    const rejectedRaw = await signPayment(rejectedAddress, 2_000_000n); // 0.02 ETH
    await broadcast(rejectedRaw);
    const releasedRaw = await signPayment(releasedAddress, 3_000_000n); // 0.03 ETH
    await broadcast(releasedRaw);
    await mineBlocks(node.url, CONFIRMATIONS);
    await watch();
    const [rejected] = await reviewOf(rejectedAddress);
    const [released] = await reviewOf(releasedAddress);
    await decide(rejected!.reviewId, "reject");
    await decide(released!.reviewId, "release");
    const credited = 3_000_000n - (3_000_000n * 5_000n) / 1_000_000n;
    const balanceBefore = await ethBalance();
    expect(await held()).toBe(2_000_000n);

    await reorg(node.url, DEEP);
    await watch();
    // As for a credited payment: no balance changes, an incident tells the operator.
    const incidents = await database.db
      .select({ kind: chainIncidents.kind, depositId: chainIncidents.depositId })
      .from(chainIncidents)
      .where(
        and(
          eq(chainIncidents.network, network.network),
          sql`${chainIncidents.depositId} in (${rejected!.deposit.id}, ${released!.deposit.id})`,
        ),
      )
      .orderBy(chainIncidents.depositId);
    expect(incidents).toEqual([
      { kind: "held_payment_removed", depositId: rejected!.deposit.id },
      { kind: "credited_payment_removed", depositId: released!.deposit.id },
    ]);
    expect(await held()).toBe(2_000_000n);
    expect(await ethBalance()).toBe(balanceBefore);
    // The merchant's only ETH: the released payment less the 0.5 % deposit fee.
    expect(balanceBefore).toBe(credited);
    expect((await rowOf(rejected!.reviewId)).chain_removal).toBe("block_removed");
    expect((await rowOf(released!.reviewId)).chain_removal).toBe("block_removed");
    expect(await fieldsOf(evmRefund(rejected!.reviewId))).toEqual({ review: COINS_GONE });
    expect(await fieldsOf(bookRefund(rejected!.reviewId, 1_990_000n))).toEqual({ review: COINS_GONE });
    expect(await held()).toBe(2_000_000n);
    await expectLedgerSound();

    // Mined again: the coins are back at Kassa's address, nothing is booked twice, the refund books.
    await broadcast(rejectedRaw);
    await broadcast(releasedRaw);
    await mineBlocks(node.url, CONFIRMATIONS);
    await watch();
    expect(await reviewOf(rejectedAddress)).toHaveLength(1);
    expect(await reviewOf(releasedAddress)).toHaveLength(1);
    expect(await held()).toBe(2_000_000n);
    expect(await ethBalance()).toBe(balanceBefore);
    expect((await rowOf(rejected!.reviewId)).chain_removal).toBeNull();
    await bookRefund(rejected!.reviewId, 1_990_000n);
    expect(await held()).toBe(0n);
    // Refunded once: a second refund finds it booked, and the held account cannot go below zero.
    expect(await fieldsOf(bookRefund(rejected!.reviewId, 1_990_000n))).toEqual({
      review: "This payment's refund is already booked.",
    });

    // Refunded, then removed again: the refund stands (it left the hot wallet), nothing goes negative.
    await reorg(node.url, DEEP);
    await watch();
    expect(await held()).toBe(0n);
    await expectLedgerSound();
  });
  it("a rejection that commits while the reorganisation handler holds a stale `held` read is still an incident, and not refundable", async () => {
    const address = await newAddress();
    await broadcast(await signPayment(address, 4_000_000n)); // 0.04 ETH
    await mineBlocks(node.url, CONFIRMATIONS);
    await watch();
    const [review] = await reviewOf(address);
    // What the reorganisation handler read, before the reviewer's rejection committed.
    const [stale] = await queryRows<RemovedPayment>(
      database.db,
      sql`select c.id, c.txid, c.log_index, c.block_height, c.block_hash, d.id as deposit_id, d.status as deposit_status
          from deposits d join chain_transactions c on c.id = d.chain_transaction_id
          where d.id = ${review!.deposit.id}`,
    );
    expect(stale!.deposit_status).toBe("held");
    await decide(review!.reviewId, "reject");
    expect(await held()).toBe(4_000_000n);
    const outcome = await inTransaction(database.db, async (tx) => {
      await tx.execute(sql`update chain_transactions set removed_at = now() where id = ${stale!.id}`);
      return settleRemovedPayment(tx, { network: network.network, payment: stale! });
    });
    expect(outcome).toBe("incident");
    const [incident] = await database.db
      .select({ kind: chainIncidents.kind })
      .from(chainIncidents)
      .where(eq(chainIncidents.depositId, review!.deposit.id));
    expect(incident!.kind).toBe("held_payment_removed");
    expect(await fieldsOf(bookRefund(review!.reviewId, 3_990_000n))).toEqual({ review: COINS_GONE });
    expect(await held()).toBe(4_000_000n);
    await expectLedgerSound();
  });
  if (testDriver === "pg") {
    it("a rejection or a refund racing the reorganisation's removal waits for it, then books nothing", async () => {
      const decidedAddress = await newAddress();
      const refundedAddress = await newAddress();
      await broadcast(await signPayment(decidedAddress, 5_000_000n)); // 0.05 ETH
      await broadcast(await signPayment(refundedAddress, 6_000_000n)); // 0.06 ETH
      await mineBlocks(node.url, CONFIRMATIONS);
      await watch();
      const [toDecide] = await reviewOf(decidedAddress);
      const [toRefund] = await reviewOf(refundedAddress);
      await decide(toRefund!.reviewId, "reject");
      const heldBefore = await held();
      // The reorganisation handler's transaction, marking both payments removed, not yet committed.
      const holder = await (database.driver as { kind: "pg"; pool: Pool }).pool.connect();
      try {
        await holder.query("begin");
        await holder.query("update chain_transactions set removed_at = now() where id = any($1)", [
          [toDecide!.deposit.chainTransactionId, toRefund!.deposit.chainTransactionId],
        ]);
        const rejecting = decide(toDecide!.reviewId, "reject");
        const refunding = fieldsOf(bookRefund(toRefund!.reviewId, 5_990_000n));
        await waitUntil(
          async () =>
            (
              await queryRows(
                database.db,
                sql`select 1 from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()`,
              )
            ).length === 2,
          { what: "the rejection and the refund wait for the removal's row lock" },
        );
        await holder.query("commit");
        await rejecting;
        expect(await refunding).toEqual({ review: COINS_GONE });
      } finally {
        holder.release();
      }
      const [deposit] = await database.db
        .select()
        .from(deposits)
        .where(eq(deposits.id, toDecide!.deposit.id));
      expect(deposit!.status).toBe("unwound");
      expect(await held()).toBe(heldBefore);
      await expectLedgerSound();
    });
  }
});
