import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import {
  type Address,
  createPublicClient,
  createWalletClient,
  formatUnits,
  type Hash,
  http,
  type PublicClient,
  parseUnits,
} from "viem";
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { takeAddress } from "@/lib/addresses/take-address";
import { connectEvmNetwork, type EvmNetwork } from "@/lib/chain/evm/evm-network";
import { deriveHotWallet, hotWalletAddress } from "@/lib/chain/evm/payout/hot-wallet";
import { trackEvmPayouts } from "@/lib/chain/evm/payout/track-evm-payouts";
import type { Reconciliation } from "@/lib/chain/evm/reconcile/reconcile-evm-chain";
import { watchEvmChain } from "@/lib/chain/evm/watch-evm-chain";
import { forgetHdSeed, loadHdSeed } from "@/lib/chain/hd-seed";
import { forgetAccountKeys, loadAccountKeys } from "@/lib/chain/load-account-keys";
import { runCliCommand } from "@/lib/cli/commands";
import { bookEvmComplianceRefund } from "@/lib/compliance/book-evm-compliance-refund";
import { decideReview } from "@/lib/compliance/decide-review";
import type { EvmConfig } from "@/lib/config";
import { queryRows } from "@/lib/db/client";
import { chainTransactions, complianceReviews, deposits, evmPayouts } from "@/lib/db/schema";
import { KassaError } from "@/lib/errors";
import { jobHandlers, payoutAdapter } from "@/lib/host/job-handlers";
import { runDueJobs } from "@/lib/jobs/runner";
import { creditSandboxBalance } from "@/lib/ledger/credit-sandbox-balance";
import { formatAmount, parseDecimal, parseStoredAmount } from "@/lib/money";
import { withdrawalRequest } from "@/lib/schemas/withdrawals";
import { createWithdrawal } from "@/lib/withdrawals/create-withdrawal";
import { withdrawalInput } from "@/lib/withdrawals/from-request";
import {
  type AnvilNode,
  customer,
  deployToken,
  freePort,
  mineBlocks,
  payEth,
  payToken,
  startTestAnvil,
  TOKEN_ABI,
  testClientFor,
} from "../support/anvil";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { pricing, testKeys } from "../support/invoices";
import { ledgerInvariants } from "../support/ledger";
import { createTestMerchant, fieldsOf } from "../support/merchants";

const CONFIRMATIONS = 2;
const WEI_PER_LEDGER_UNIT = 10n ** 10n;
/** Ledger units (10^-8) from wei, rounded up: computed here from the receipt, not by Kassa's code. */
const ceilUnits = (wei: bigint) => (wei + WEI_PER_LEDGER_UNIT - 1n) / WEI_PER_LEDGER_UNIT;

describe(`a rejected payment's refund read from a real anvil node (${testDriver})`, () => {
  let node: AnvilNode;
  let database: TestDatabase;
  let network: EvmNetwork;
  let config: EvmConfig;
  let handlers: ReturnType<typeof jobHandlers>;
  let merchantId: number;
  let hotWallet: Address;
  let hotAccount: PrivateKeyAccount;
  let usdt: Address;
  let counter = 0;
  /** Every hot wallet transaction whose gas Kassa booked: its rounding up to 10^-8 stays on chain. */
  const gasBooked: Hash[] = [];

  const env = () => ({ db: database.db, box: database.box, isSandbox: true, evm: config });
  const watch = () => watchEvmChain(database.db, { network, pricing });
  const reconcile = async () =>
    (await runCliCommand({ name: "chain.reconcile", args: {} }, env())) as Reconciliation;
  const refund = (review: number, txid: string, extra: Record<string, string> = {}) =>
    runCliCommand({ name: "compliance.refund", args: { review: String(review), txid, ...extra } }, env());
  const hotWalletClient = () =>
    createWalletClient({ account: hotAccount, chain: foundry, transport: http(node.url) });
  const receiptOf = (hash: Hash) =>
    node.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 });
  const gasOf = async (hash: Hash) => {
    const receipt = await node.publicClient.getTransactionReceipt({ hash });
    return receipt.gasUsed * receipt.effectiveGasPrice;
  };
  const hotSendToken = (value: bigint, gas?: bigint) =>
    hotWalletClient().writeContract({
      address: usdt,
      abi: TOKEN_ABI,
      functionName: "transfer",
      args: [customer.address, value],
      gas,
    });
  /** A 0.05 ETH withdrawal, signed and sent by the job runner: its payout row. */
  const signPayout = async () => {
    await createWithdrawal(
      database.db,
      withdrawalInput(
        merchantId,
        withdrawalRequest.parse({
          currency: "ETH",
          amount: "0.05",
          address: privateKeyToAccount(generatePrivateKey()).address,
          foreign_id: `refund-${++counter}`,
          end_user_reference: "payee",
          sender_type: "legal",
          sender_data: { legal_name: "Shop GmbH", country_of_registration: "DEU" },
          receiver_type: "self",
        }),
        pricing,
      ),
    );
    await runDueJobs(database.db, handlers);
    const [payout] = await database.db
      .select()
      .from(evmPayouts)
      .where(eq(evmPayouts.reference, `withdrawal:${await lastWithdrawalId()}`));
    return payout!;
  };
  /** A payout signed, mined and confirmed: its settled row. */
  const withdraw = async () => {
    const { reference } = await signPayout();
    await mineBlocks(node.url, CONFIRMATIONS);
    await trackEvmPayouts(database.db, { network });
    const [payout] = await database.db.select().from(evmPayouts).where(eq(evmPayouts.reference, reference));
    return payout!;
  };
  const lastWithdrawalId = async () =>
    (
      await queryRows<{ id: number }>(
        database.db,
        sql`select max(id)::int as id from transactions where type = 'withdrawal'`,
      )
    )[0]!.id;
  /** A payment of `currency` from the denylisted customer, held, then rejected: its review id and held amount. */
  const rejectedPayment = async (currency: "ETH" | "USDTE", pay: (to: string) => Promise<unknown>) => {
    const address = await takeAddress(database.db, testKeys, {
      merchantId,
      foreignId: `held-${++counter}`,
      currency,
    });
    await pay(address.address);
    await mineBlocks(node.url, CONFIRMATIONS);
    await watch();
    const [row] = await database.db
      .select({ reviewId: complianceReviews.id, status: deposits.status, amount: deposits.amount })
      .from(deposits)
      .innerJoin(complianceReviews, eq(complianceReviews.depositId, deposits.id))
      .innerJoin(chainTransactions, eq(chainTransactions.id, deposits.chainTransactionId))
      .where(eq(chainTransactions.address, address.address));
    expect(row!.status).toBe("held");
    await decideReview(database.db, {
      merchantId,
      reviewId: row!.reviewId,
      userId: null,
      decision: "reject",
      audit: { actor: { kind: "cli" } },
      pricing,
    });
    return { reviewId: row!.reviewId, held: row!.amount };
  };
  /** The refund journal's entries per account kind and currency, ledger units. */
  const refundEntries = async (reviewId: number) => {
    const rows = await queryRows<{ kind: string; currency: string; amount: string }>(
      database.db,
      sql`select a.kind, a.currency, sum(e.amount)::text as amount
          from ledger_entries e join journals j on j.id = e.journal_id join ledger_accounts a on a.id = e.account_id
          join compliance_reviews r on r.transaction_id = j.transaction_id
          where j.kind = 'compliance_refund' and r.id = ${reviewId}
          group by a.kind, a.currency order by a.kind, a.currency`,
    );
    return Object.fromEntries(rows.map((r) => [`${r.kind} ${r.currency}`, parseStoredAmount(r.amount)]));
  };

  beforeAll(async () => {
    node = await startTestAnvil();
    usdt = await deployToken(node.url, { symbol: "USDT", decimals: 6, supply: 10n ** 15n });
    database = await createTestDatabase();
    forgetHdSeed();
    forgetAccountKeys();
    merchantId = await createTestMerchant(database, "Refunds");
    await creditSandboxBalance(database.db, {
      merchantId,
      currency: "ETH",
      amount: parseDecimal("10"),
      isSandbox: true,
    });
    const denylist = path.join(mkdtempSync(path.join(tmpdir(), "kassa-evm-refund-")), "denylist.txt");
    writeFileSync(denylist, `${customer.address}\n`);
    process.env.KASSA_SCREENING_DENYLIST = denylist;
    config = { rpcUrl: node.url, tokens: { USDTE: usdt }, confirmations: CONFIRMATIONS };
    network = await connectEvmNetwork(config);
    handlers = jobHandlers({
      pricing,
      mail: { smtpUrl: undefined, from: "Kassa <test@kassa.test>" },
      chain: payoutAdapter({ mode: "sandbox", evm: config, box: database.box }),
    });
    hotWallet = hotWalletAddress(await loadAccountKeys(database.db, database.box));
    hotAccount = deriveHotWallet(await loadHdSeed(database.db, database.box));
    await watch();
    // The operator funds the hot wallet and records it, so reconciliation starts exact.
    const eth = await payEth(node.url, { to: hotWallet, value: 2n * 10n ** 18n });
    const tokens = await payToken(node.url, { token: usdt, to: hotWallet, value: 1_000n * 10n ** 6n });
    await mineBlocks(node.url, CONFIRMATIONS);
    await runCliCommand({ name: "chain.fund", args: { currency: "ETH", txid: eth.transactionHash } }, env());
    await runCliCommand(
      { name: "chain.fund", args: { currency: "USDTE", txid: tokens.transactionHash } },
      env(),
    );
  });
  afterAll(async () => {
    delete process.env.KASSA_SCREENING_DENYLIST;
    await database?.drop();
    await node?.stop();
  });

  it("books an ETH refund from its receipt, to the wei, moves the payout nonce past it, and reconciles exactly", async () => {
    // A payout before the refund: Kassa's nonce counter for the hot wallet exists.
    const first = await withdraw();
    expect(first.status).toBe("confirmed");
    gasBooked.push(first.txHash as Hash);

    // 0.02 ETH and 7 wei below 10^-8 (dust the credit rounds away).
    const { reviewId, held } = await rejectedPayment("ETH", (to) =>
      payEth(node.url, { to, value: 2_000_000n * WEI_PER_LEDGER_UNIT + 7n }),
    );
    expect(held).toBe(2_000_000n);

    // The operator sends 0.0199 ETH and 3 wei back by hand, from the hot wallet.
    const sentWei = 1_990_000n * WEI_PER_LEDGER_UNIT + 3n;
    const anvil = testClientFor(node.url);
    await anvil.setAutomine(false);
    let hash: Hash;
    try {
      hash = await hotWalletClient().sendTransaction({ to: customer.address, value: sentWei });
      expect(await fieldsOf(refund(reviewId, hash))).toEqual({
        txid: "The node knows no mined transaction with this id: book it once it is mined.",
      });
      await mineBlocks(node.url, 1);
    } finally {
      await anvil.setAutomine(true);
    }
    const receipt = await receiptOf(hash);
    expect(await fieldsOf(refund(reviewId, hash))).toEqual({
      txid: "Wait for 2 confirmations, then book it.",
    });
    await mineBlocks(node.url, 1);
    // The typed flags belong to the sandbox chains: here the node says what was sent and paid.
    expect(await fieldsOf(refund(reviewId, hash, { fee: "0.0001" }))).toEqual({
      fee: "On the Ethereum chain the amount sent and the gas are read from the node: leave out --fee and --gas.",
    });

    const gasWei = receipt.gasUsed * receipt.effectiveGasPrice;
    const sentUnits = ceilUnits(sentWei);
    const gasUnits = ceilUnits(gasWei);
    expect(sentUnits).toBe(1_990_001n);
    const booked = await refund(reviewId, hash.toUpperCase().replace(/^0X/, "0x"));
    expect(booked).toEqual({
      review_id: reviewId,
      merchant_id: merchantId,
      currency: "ETH",
      amount: "0.02000000",
      sent: formatAmount(sentUnits),
      fee: formatAmount(held - sentUnits),
      gas: formatAmount(gasUnits),
      refund_txid: hash,
      refunded_at: expect.any(String),
      sent_on_chain: formatUnits(sentWei, 18),
      gas_on_chain: formatUnits(gasWei, 18),
    });
    gasBooked.push(hash);
    expect(await refundEntries(reviewId)).toEqual({
      "platform:chain ETH": sentUnits + gasUnits,
      "platform:compliance_held ETH": -held,
      "platform:network_fees ETH": held - sentUnits - gasUnits,
    });
    expect(await fieldsOf(refund(reviewId, hash))).toEqual({
      review: "This payment's refund is already booked.",
    });

    // The next payout takes the nonce after the refund's, and is mined.
    const refundNonce = (await node.publicClient.getTransaction({ hash })).nonce;
    const second = await withdraw();
    expect(second.nonce).toBe(BigInt(refundNonce + 1));
    expect(second.status).toBe("confirmed");
    gasBooked.push(second.txHash as Hash);

    await watch();
    const result = await reconcile();
    let rounding = 0n;
    for (const booked of gasBooked) {
      const wei = await gasOf(booked);
      rounding += ceilUnits(wei) * WEI_PER_LEDGER_UNIT - wei;
    }
    // The payment's 7 wei stay on chain; the refund sent 3 wei more than 1,990,000 units and was
    // booked as 1,990,001: the rest of that unit stays on chain too.
    const refundDust = sentUnits * WEI_PER_LEDGER_UNIT - sentWei;
    expect(result.currencies.ETH!.explained).toEqual({
      dust: formatUnits(7n + refundDust, 18),
      payments_not_credited: "0",
      payouts_in_flight: "0",
      gas_not_booked: "0",
      gas_rounding: formatUnits(rounding, 18),
    });
    expect(result.currencies.ETH).toMatchObject({ unexplained: "0", is_reconciled: true });
    // Independently: on chain (read here) minus the ledger is exactly that.
    const block = BigInt(result.block);
    const heldAt = (await takenAddresses()).filter((a) => a.currency === "ETH");
    let onChain = await node.publicClient.getBalance({ address: hotWallet, blockNumber: block });
    for (const a of heldAt)
      onChain += await node.publicClient.getBalance({ address: a.address as Address, blockNumber: block });
    expect(onChain - (await ledgerChain("ETH")) * WEI_PER_LEDGER_UNIT).toBe(7n + refundDust + rounding);
    expect(result.is_reconciled).toBe(true);
    expect(await ledgerInvariants(database.db)).toEqual({
      nonZeroCurrencies: [],
      accountsNotMatchingEntries: 0,
      negativeMerchantBalances: 0,
    });
  });

  it("books a refund of exactly what arrived, wei below 10^-8 included, as the held amount, and reconciles exactly", async () => {
    await watch();
    const before = await reconcile();
    expect(before.currencies.ETH).toMatchObject({ unexplained: "0" });
    // 0.03 ETH and 9 wei: held 0.03000000, the 9 wei are the payment's dust.
    const arrived = 3_000_000n * WEI_PER_LEDGER_UNIT + 9n;
    const { reviewId, held } = await rejectedPayment("ETH", (to) => payEth(node.url, { to, value: arrived }));
    expect(held).toBe(3_000_000n);
    // The operator sends back exactly what the explorer shows the customer paid.
    const hash = await hotWalletClient().sendTransaction({ to: customer.address, value: arrived });
    await receiptOf(hash);
    await mineBlocks(node.url, CONFIRMATIONS);
    const booked = await refund(reviewId, hash);
    expect(booked).toMatchObject({ amount: "0.03000000", sent: "0.03000000", fee: "0.00000000" });
    gasBooked.push(hash);
    const gasWei = await gasOf(hash);
    expect(await refundEntries(reviewId)).toEqual({
      "platform:chain ETH": held + ceilUnits(gasWei),
      "platform:compliance_held ETH": -held,
      "platform:network_fees ETH": -ceilUnits(gasWei),
    });

    await watch();
    const after = await reconcile();
    expect(after.currencies.ETH).toMatchObject({ unexplained: "0", is_reconciled: true });
    // The payment's 9 wei arrived and left again: the dust is what it was before.
    expect(after.currencies.ETH!.explained.dust).toBe(before.currencies.ETH!.explained.dust);
    const roundingOf = (wei: bigint) => ceilUnits(wei) * WEI_PER_LEDGER_UNIT - wei;
    expect(
      parseUnits(after.currencies.ETH!.explained.gas_rounding, 18) -
        parseUnits(before.currencies.ETH!.explained.gas_rounding, 18),
    ).toBe(roundingOf(gasWei));
  });

  const takenAddresses = () =>
    queryRows<{ address: string; currency: string }>(
      database.db,
      sql`select address, currency from chain_transactions where network = 'ethereum' and direction = 'in'
          and lower(address) <> ${hotWallet.toLowerCase()}`,
    );
  const ledgerChain = async (currency: string) => {
    const [row] = await queryRows<{ balance: string }>(
      database.db,
      sql`select balance::text as balance from ledger_accounts
          where merchant_id is null and kind = 'platform:chain' and currency = ${currency}`,
    );
    return -parseStoredAmount(row!.balance);
  };

  it("books a USDTE refund: the amount from the Transfer log, the fee withheld, the gas from the receipt", async () => {
    const { reviewId, held } = await rejectedPayment("USDTE", (to) =>
      payToken(node.url, { token: usdt, to, value: 50n * 10n ** 6n }),
    );
    expect(held).toBe(parseDecimal("50"));
    const hash = await hotSendToken(49_500_000n); // 49.5 USDT
    const receipt = await receiptOf(hash);
    await mineBlocks(node.url, CONFIRMATIONS);
    const gasWei = receipt.gasUsed * receipt.effectiveGasPrice;
    expect(await refund(reviewId, hash)).toMatchObject({
      currency: "USDTE",
      amount: "50.00000000",
      sent: "49.50000000",
      fee: "0.50000000",
      gas: formatAmount(ceilUnits(gasWei)),
      sent_on_chain: "49.5",
      gas_on_chain: formatUnits(gasWei, 18),
    });
    gasBooked.push(hash);
    expect(await refundEntries(reviewId)).toEqual({
      "platform:chain ETH": ceilUnits(gasWei),
      "platform:chain USDTE": parseDecimal("49.5"),
      "platform:compliance_held USDTE": -parseDecimal("50"),
      "platform:network_fees ETH": -ceilUnits(gasWei),
      "platform:network_fees USDTE": parseDecimal("0.5"),
    });

    await watch();
    const result = await reconcile();
    expect(result.currencies.USDTE).toMatchObject({ difference: "0", unexplained: "0", is_reconciled: true });
    let rounding = 0n;
    for (const booked of gasBooked) {
      const wei = await gasOf(booked);
      rounding += ceilUnits(wei) * WEI_PER_LEDGER_UNIT - wei;
    }
    expect(result.currencies.ETH!.explained.gas_rounding).toBe(formatUnits(rounding, 18));
    expect(result.is_reconciled).toBe(true);
    // What is still held is exactly nothing: both rejected payments are refunded.
    const [heldAccounts] = await queryRows<{ total: string }>(
      database.db,
      sql`select coalesce(sum(balance), 0)::text as total from ledger_accounts where kind = 'platform:compliance_held'`,
    );
    expect(parseStoredAmount(heldAccounts!.total)).toBe(0n);
  });

  it("refuses a transaction that is not this payment's refund, each with its reason, and books nothing", async () => {
    const { reviewId, held } = await rejectedPayment("ETH", (to) =>
      payEth(node.url, { to, value: 1_000_000n * WEI_PER_LEDGER_UNIT }),
    );
    const mined = async (hash: Hash) => {
      await receiptOf(hash);
      await mineBlocks(node.url, CONFIRMATIONS);
      return hash;
    };
    const reverted = await mined(await hotSendToken(10n ** 12n, 100_000n)); // more USDT than the wallet holds
    const fromCustomer = (
      await payEth(node.url, { to: privateKeyToAccount(generatePrivateKey()).address, value: 10n ** 15n })
    ).transactionHash;
    await mineBlocks(node.url, CONFIRMATIONS);
    const tokenOnly = await mined(await hotSendToken(1n));
    const tooMuch = await mined(
      await hotWalletClient().sendTransaction({
        to: customer.address,
        value: held * WEI_PER_LEDGER_UNIT + 1n,
      }),
    );

    expect(await fieldsOf(refund(reviewId, "0x1234"))).toEqual({
      txid: "Give the refund transaction's hash: 0x and 64 hexadecimal digits.",
    });
    expect(await fieldsOf(refund(reviewId, `0x${"ab".repeat(32)}`))).toEqual({
      txid: "The node knows no mined transaction with this id: book it once it is mined.",
    });
    expect(await fieldsOf(refund(reviewId, reverted))).toEqual({
      txid: "This transaction reverted: it refunded nothing.",
    });
    expect(await fieldsOf(refund(reviewId, fromCustomer))).toEqual({
      txid: `This transaction was sent from ${customer.address.toLowerCase()}, not from the hot wallet ${hotWallet.toLowerCase()}: a refund leaves from the hot wallet.`,
    });
    expect(await fieldsOf(refund(reviewId, tokenOnly))).toEqual({
      txid: "This transaction sent no ETH from the hot wallet to another address.",
    });
    const [ownPayout] = await database.db.select().from(evmPayouts).where(eq(evmPayouts.status, "confirmed"));
    expect(await fieldsOf(refund(reviewId, ownPayout!.txHash))).toEqual({
      txid: `This transaction is Kassa's own payout ${ownPayout!.reference}, booked already: not a refund.`,
    });
    expect(await fieldsOf(refund(reviewId, tooMuch))).toEqual({
      txid: "This transaction sent 0.010000000000000001 ETH, more than the 0.01 ETH this payment brought: it is not this payment's refund.",
    });
    // A node that does not answer: one clear line for the operator, nothing booked.
    const silent = createPublicClient({
      transport: http(`http://127.0.0.1:${await freePort()}`, { retryCount: 0 }),
    }) as PublicClient;
    const unanswered = await bookEvmComplianceRefund(database.db, {
      network: { ...network, client: silent },
      hotWallet,
      reviewId,
      txid: tooMuch,
      audit: { actor: { kind: "cli" } },
    }).catch((error: unknown) => error);
    expect(unanswered).toBeInstanceOf(KassaError);
    expect(unanswered).toMatchObject({ code: "service_unavailable" });
    expect((unanswered as KassaError).message).toMatch(
      /^The EVM node did not answer \(.+\): nothing was booked, try again\.$/,
    );
    const [review] = await database.db
      .select()
      .from(complianceReviews)
      .where(eq(complianceReviews.id, reviewId));
    expect(review).toMatchObject({ status: "rejected", refundTxid: null, refundedAt: null });
    expect(await refundEntries(reviewId)).toEqual({});
  });

  it("names the payout whose nonce a refund sent by hand took, so the operator sees it can never be mined", async () => {
    const { reviewId } = await rejectedPayment("ETH", (to) =>
      payEth(node.url, { to, value: 1_000_000n * WEI_PER_LEDGER_UNIT }),
    );
    const anvil = testClientFor(node.url);
    await anvil.setAutomine(false);
    let hash: Hash;
    let reference: string;
    try {
      // The job runner signs and sends a payout; before it is mined, the operator's wallet sends the
      // refund with the same nonce and higher fees, and the node keeps the refund.
      // The refusals above sent transactions from the hot wallet that were never booked: the
      // payout's nonce still comes after them, from the node's count.
      const count = await node.publicClient.getTransactionCount({ address: hotWallet, blockTag: "pending" });
      const payout = await signPayout();
      expect(payout.nonce).toBe(BigInt(count));
      reference = payout.reference;
      hash = await hotWalletClient().sendTransaction({
        to: customer.address,
        value: 900_000n * WEI_PER_LEDGER_UNIT,
        nonce: Number(payout.nonce),
        maxFeePerGas: payout.maxFeePerGas * 2n,
        maxPriorityFeePerGas: payout.maxFeePerGas * 2n,
      });
      await mineBlocks(node.url, 1);
    } finally {
      await anvil.setAutomine(true);
    }
    await receiptOf(hash);
    await mineBlocks(node.url, CONFIRMATIONS);
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      expect(await refund(reviewId, hash)).toMatchObject({ sent: "0.00900000", stuck_payout: reference });
      expect(logged.mock.calls.map((c) => String(c[0]))).toEqual([
        expect.stringContaining(`which payout ${reference} was signed with: that payout cannot be mined`),
      ]);
    } finally {
      logged.mockRestore();
    }
  });
});
