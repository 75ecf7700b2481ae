import { sql } from "drizzle-orm";
import { type Address, parseAbi, parseTransaction } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { ChainAdapter } from "@/lib/chain/adapter";
import { connectEvmNetwork, type EvmNetwork } from "@/lib/chain/evm/evm-network";
import { deriveHotWallet, HOT_WALLET_PATH } from "@/lib/chain/evm/payout/hot-wallet";
import { payoutCall } from "@/lib/chain/evm/payout/payout-call";
import { preparePayout } from "@/lib/chain/evm/payout/prepare-payout";
import type { PayoutReplacement } from "@/lib/chain/evm/payout/replace-stuck-payout";
import { storeSignedPayout } from "@/lib/chain/evm/payout/store-signed-payout";
import { trackEvmPayouts } from "@/lib/chain/evm/payout/track-evm-payouts";
import { watchEvmChain } from "@/lib/chain/evm/watch-evm-chain";
import { forgetHdSeed, loadHdSeed } from "@/lib/chain/hd-seed";
import { runCliCommand } from "@/lib/cli/commands";
import type { EvmConfig } from "@/lib/config";
import { configureOffering } from "@/lib/currencies/offering";
import { queryRows } from "@/lib/db/client";
import { jobHandlers, payoutAdapter } from "@/lib/host/job-handlers";
import { runDueJobs } from "@/lib/jobs/runner";
import { creditSandboxBalance } from "@/lib/ledger/credit-sandbox-balance";
import { listBalances } from "@/lib/ledger/list-balances";
import { parseDecimal } from "@/lib/money";
import { withdrawalRequest } from "@/lib/schemas/withdrawals";
import { describeTransaction } from "@/lib/transactions/describe-transaction";
import { claimWithdrawal } from "@/lib/withdrawals/claim-withdrawal";
import { createWithdrawal } from "@/lib/withdrawals/create-withdrawal";
import { withdrawalInput } from "@/lib/withdrawals/from-request";
import { sweepWithdrawalClaims } from "@/lib/withdrawals/sweep-withdrawals";
import { withdrawalReference } from "@/lib/withdrawals/withdrawal-reference";
import {
  type AnvilNode,
  deployToken,
  mineBlocks,
  payEth,
  payToken,
  startTestAnvil,
  TOKEN_ABI,
  testClientFor,
  walletFor,
} from "../support/anvil";
import { testClock } from "../support/clock";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { pricing } from "../support/invoices";
import { ledgerInvariants } from "../support/ledger";
import { createTestMerchant, fieldsOf } from "../support/merchants";

const CONFIRMATIONS = 2;
const BLOCK_ABI = parseAbi(["function setBlocked(address who, bool blocked)"]);

describe(`EVM payouts from the hot wallet on a real anvil node (${testDriver})`, () => {
  let node: AnvilNode;
  let database: TestDatabase;
  let network: EvmNetwork;
  let config: EvmConfig;
  let handlers: ReturnType<typeof jobHandlers>;
  let merchantId: number;
  let hotWallet: Address;
  let usdt: Address;
  let usdc: Address;
  let counter = 0;

  const freshAddress = () => privateKeyToAccount(generatePrivateKey()).address;
  const withdraw = (input: { currency: string; amount: string; address: string }) =>
    createWithdrawal(
      database.db,
      withdrawalInput(
        merchantId,
        withdrawalRequest.parse({
          ...input,
          foreign_id: `payout-${++counter}`,
          end_user_reference: "payee",
          sender_type: "legal",
          sender_data: { legal_name: "Shop GmbH", country_of_registration: "DEU" },
          receiver_type: "self",
        }),
        pricing,
      ),
    );
  const tokenBalance = (token: Address, owner: string) =>
    node.publicClient.readContract({
      address: token,
      abi: TOKEN_ABI,
      functionName: "balanceOf",
      args: [owner as Address],
    });
  const balance = async (currency: string) =>
    (await listBalances(database.db, merchantId)).find((b) => b.currency === currency)?.balance ?? 0n;
  const status = async (id: number) =>
    (
      await queryRows<{ status: string }>(database.db, sql`select status from transactions where id = ${id}`)
    )[0]!.status;
  const payoutRows = (reference: string) =>
    queryRows<{ nonce: string; tx_hash: string; status: string }>(
      database.db,
      sql`select nonce::text, tx_hash, status from evm_payouts where reference = ${reference}`,
    );
  /** Mines past the confirmations and lets the tracker settle what reached them. */
  const confirmPayouts = async () => {
    await mineBlocks(node.url, CONFIRMATIONS);
    return trackEvmPayouts(database.db, { network });
  };
  const expectLedgerBalanced = async () =>
    expect(await ledgerInvariants(database.db)).toEqual({
      nonZeroCurrencies: [],
      accountsNotMatchingEntries: 0,
      negativeMerchantBalances: 0,
    });

  beforeAll(async () => {
    node = await startTestAnvil();
    usdt = await deployToken(node.url, { symbol: "USDT", decimals: 6, supply: 10n ** 15n });
    usdc = await deployToken(node.url, { symbol: "USDC", decimals: 6, supply: 10n ** 15n });
    database = await createTestDatabase();
    forgetHdSeed();
    merchantId = await createTestMerchant(database, "Payouts");
    await runCliCommand(
      { name: "merchants.set-callback", args: { merchant: merchantId, url: "http://127.0.0.1:9/kassa" } },
      { db: database.db, box: database.box, isSandbox: true },
    );
    for (const currency of ["ETH", "USDTE", "USDC"])
      await creditSandboxBalance(database.db, {
        merchantId,
        currency,
        amount: parseDecimal("1000"),
        isSandbox: true,
      });
    config = { rpcUrl: node.url, tokens: { USDTE: usdt, USDC: usdc }, confirmations: CONFIRMATIONS };
    network = await connectEvmNetwork(config);
    handlers = jobHandlers({
      pricing,
      mail: { smtpUrl: undefined, from: "Kassa <test@kassa.test>" },
      chain: payoutAdapter({ mode: "sandbox", evm: config, box: database.box }),
    });
    hotWallet = deriveHotWallet(await loadHdSeed(database.db, database.box)).address;
    // The operator funds the hot wallet with ETH and USDT; USDC stays empty until a test funds it.
    await payEth(node.url, { to: hotWallet, value: 10n * 10n ** 18n });
    await payToken(node.url, { token: usdt, to: hotWallet, value: 10_000n * 10n ** 6n });
  });
  afterEach(() => configureOffering(undefined));
  afterAll(async () => {
    await database?.drop();
    await node?.stop();
  });

  it("shows the hot wallet, derived on its own path, with its balances read on chain", async () => {
    expect(HOT_WALLET_PATH).toBe("m/44'/60'/0'/1/0");
    const shown = await runCliCommand(
      { name: "chain.wallets", args: {} },
      { db: database.db, box: database.box, isSandbox: true, evm: config },
    );
    expect(shown).toEqual({
      evm: {
        address: hotWallet,
        balances: { ETH: "10.00000000", USDTE: "10000.00000000", USDC: "0.00000000" },
      },
    });
  });

  it("pays ETH exactly to a fresh address, confirmed with the real txid after the confirmations", async () => {
    const to = freshAddress();
    const before = await balance("ETH");
    const hotBefore = await node.publicClient.getBalance({ address: hotWallet });
    const { id } = await withdraw({ currency: "ETH", amount: "0.12345678", address: to });
    expect(await runDueJobs(database.db, handlers, { log: console.log })).toBeGreaterThan(0);

    expect(await node.publicClient.getBalance({ address: to })).toBe(123_456_780_000_000_000n);
    const [payout] = await payoutRows(withdrawalReference(id));
    const info = await describeTransaction(database.db, id);
    expect(JSON.stringify(info)).toContain(payout!.tx_hash);
    expect(await status(id)).toBe("sending");
    const receipt = await node.publicClient.getTransactionReceipt({ hash: payout!.tx_hash as `0x${string}` });
    expect(receipt.from).toBe(hotWallet.toLowerCase());

    expect(await confirmPayouts()).toMatchObject({ confirmed: 1, reverted: 0 });
    // The fee really paid is recorded, and the hot wallet lost exactly the amount and that fee.
    const [fee] = await queryRows<{ fee_paid: string }>(
      database.db,
      sql`select fee_paid::text from evm_payouts where reference = ${withdrawalReference(id)}`,
    );
    expect(BigInt(fee!.fee_paid)).toBe(receipt.gasUsed * receipt.effectiveGasPrice);
    expect(await node.publicClient.getBalance({ address: hotWallet })).toBe(
      hotBefore - 123_456_780_000_000_000n - BigInt(fee!.fee_paid),
    );
    expect(await describeTransaction(database.db, id)).toMatchObject({ status: "confirmed" });
    // Its confirmations are counted on the real chain (the watcher's cursor), not the sandbox's tip.
    await watchEvmChain(database.db, { network, pricing });
    const sent = (await describeTransaction(database.db, id)).transactions.find(
      (t) => t.txid === payout!.tx_hash,
    );
    expect(sent?.confirmations).toBe(
      String((await node.publicClient.getBlockNumber()) - receipt.blockNumber + 1n),
    );
    // The merchant paid the amount and the quoted 0.0005 ETH network fee, once.
    expect(await balance("ETH")).toBe(before - parseDecimal("0.12395678"));
    const callbacks = await queryRows<{ count: number }>(
      database.db,
      sql`select count(*)::int as count from callbacks where transaction_id = ${id} and event like '%confirmed'`,
    );
    expect(callbacks[0]!.count).toBeGreaterThan(0);
    await expectLedgerBalanced();
  });

  it("pays a token exactly to a fresh address", async () => {
    const to = freshAddress();
    const { id } = await withdraw({ currency: "USDTE", amount: "12.345678", address: to });
    await runDueJobs(database.db, handlers);
    expect(await tokenBalance(usdt, to)).toBe(12_345_678n);
    expect(await node.publicClient.getBalance({ address: to })).toBe(0n);
    await confirmPayouts();
    expect(await status(id)).toBe("confirmed");
    await expectLedgerBalanced();
  });

  it("after a crash between signing and sending, the next attempt sends the stored bytes: exactly one transfer", async () => {
    const to = freshAddress();
    const { id } = await withdraw({ currency: "ETH", amount: "0.5", address: to });
    const reference = withdrawalReference(id);
    // The broadcast job's steps, by hand: the claim commits, the payout is signed and stored, and
    // the process dies before anything reaches the node.
    const claim = await claimWithdrawal(database.db, id);
    expect(claim?.isResumed).toBe(false);
    const wallet = deriveHotWallet(await loadHdSeed(database.db, database.box));
    const call = payoutCall(network, { currency: "ETH", address: to, amount: parseDecimal("0.5") });
    if ("refusal" in call) throw new Error(call.refusal);
    const prepared = await preparePayout({ network, wallet, call, ceilingGwei: 200 });
    if (prepared.kind !== "ready") throw new Error(prepared.reason);
    const stored = await storeSignedPayout(database.db, {
      reference,
      network,
      wallet,
      call,
      fees: prepared.fees,
      gasLimit: prepared.gasLimit,
      firstNonce: await node.publicClient.getTransactionCount({ address: hotWallet }),
    });
    expect(await node.publicClient.getBalance({ address: to })).toBe(0n);

    // The withdrawal's job runs (the retry after the crash), then once more: one transaction, the stored one.
    const nonceBefore = await node.publicClient.getTransactionCount({ address: hotWallet });
    await runDueJobs(database.db, handlers);
    await database.db.execute(
      sql`insert into jobs (queue, payload, run_at) values ('withdrawal.broadcast', ${JSON.stringify({ withdrawalId: id })}::jsonb, now())`,
    );
    await runDueJobs(database.db, handlers);

    expect(await node.publicClient.getBalance({ address: to })).toBe(5n * 10n ** 17n);
    expect(await node.publicClient.getTransactionCount({ address: hotWallet })).toBe(nonceBefore + 1);
    expect(await payoutRows(reference)).toEqual([
      { nonce: stored.nonce.toString(), tx_hash: stored.txHash, status: "signed" },
    ]);
    const [row] = await queryRows<{ txid: string }>(
      database.db,
      sql`select txid from withdrawals where transaction_id = ${id}`,
    );
    expect(row!.txid).toBe(stored.txHash);
    await confirmPayouts();
    expect(await status(id)).toBe("confirmed");
    await expectLedgerBalanced();
  });

  it("an empty hot wallet: the payout waits in processing and goes out once the wallet is funded", async () => {
    const to = freshAddress();
    const { id } = await withdraw({ currency: "USDC", amount: "25", address: to });
    await runDueJobs(database.db, handlers);
    expect(await status(id)).toBe("processing");
    const [job] = await queryRows<{ status: string; last_error: string | null }>(
      database.db,
      sql`select status, last_error from jobs where payload->>'withdrawalId' = ${String(id)}`,
    );
    expect(job).toMatchObject({ status: "queued" });
    expect(job!.last_error).toContain("the hot wallet is short of 25.00000000 USDC");
    expect(await payoutRows(withdrawalReference(id))).toEqual([]);
    // Its job runs out of attempts while the wallet stays empty: the sweep queues it again.
    await database.db.execute(
      sql`update jobs set status = 'failed', finished_at = now() where payload->>'withdrawalId' = ${String(id)}`,
    );
    expect(await sweepWithdrawalClaims(database.db, { olderThanSeconds: 0 })).toEqual([id]);

    await payToken(node.url, { token: usdc, to: hotWallet, value: 100n * 10n ** 6n });
    await runDueJobs(database.db, handlers);
    expect(await tokenBalance(usdc, to)).toBe(25_000_000n);
    await confirmPayouts();
    expect(await status(id)).toBe("confirmed");
    await expectLedgerBalanced();
  });

  it("a token that refuses the recipient: refused before signing, or reverted on chain; either way error and a refund", async () => {
    const blocked = freshAddress();
    const owner = walletFor(node.url);
    const block = async (who: Address, isBlocked: boolean) =>
      node.publicClient.waitForTransactionReceipt({
        hash: await owner.writeContract({
          address: usdt,
          abi: BLOCK_ABI,
          functionName: "setBlocked",
          args: [who, isBlocked],
        }),
      });
    const before = await balance("USDTE");

    // Blocked when the payout is prepared: the estimate shows the contract refuses; nothing is signed.
    await block(blocked, true);
    const refused = await withdraw({ currency: "USDTE", amount: "15", address: blocked });
    await runDueJobs(database.db, handlers);
    expect(await status(refused.id)).toBe("error");
    expect(await payoutRows(withdrawalReference(refused.id))).toEqual([]);
    expect(await balance("USDTE")).toBe(before);

    // Blocked after it was signed: mined, reverted, then error and the refund by new entries.
    const later = freshAddress();
    const { id } = await withdraw({ currency: "USDTE", amount: "17", address: later });
    await claimWithdrawal(database.db, id);
    const wallet = deriveHotWallet(await loadHdSeed(database.db, database.box));
    const call = payoutCall(network, { currency: "USDTE", address: later, amount: parseDecimal("17") });
    if ("refusal" in call) throw new Error(call.refusal);
    const prepared = await preparePayout({ network, wallet, call, ceilingGwei: 200 });
    if (prepared.kind !== "ready") throw new Error(prepared.reason);
    await storeSignedPayout(database.db, {
      reference: withdrawalReference(id),
      network,
      wallet,
      call,
      fees: prepared.fees,
      gasLimit: prepared.gasLimit,
      firstNonce: await node.publicClient.getTransactionCount({ address: hotWallet }),
    });
    await block(later, true);
    await runDueJobs(database.db, handlers);
    expect(await status(id)).toBe("sending");
    expect(await confirmPayouts()).toMatchObject({ reverted: 1 });
    expect(await status(id)).toBe("error");
    expect(await tokenBalance(usdt, later)).toBe(0n);
    expect(await balance("USDTE")).toBe(before);
    const kinds = await queryRows<{ kind: string }>(
      database.db,
      sql`select kind from journals where transaction_id = ${id} order by id`,
    );
    expect(kinds.map((k) => k.kind)).toEqual([
      "withdrawal_debit",
      "withdrawal_sent",
      // The reverted transaction's gas was still paid: booked to platform:network_fees.
      "withdrawal_network_fee",
      "withdrawal_reverted",
      "withdrawal_refund",
    ]);
    const events = await queryRows<{ event: string }>(
      database.db,
      sql`select event from callbacks where transaction_id = ${id} order by id`,
    );
    expect(events.at(-1)?.event).toBe("withdrawal.error");
    await expectLedgerBalanced();
  });

  // On PostgreSQL the two broadcasters really run at once (each on its own connections): 200 payouts.
  // PGlite has one connection, so 20 show the same there.
  const racing = testDriver === "pg" ? 200 : 20;
  it(`two broadcasters at once: ${racing} payouts sent, nonces distinct and without gaps`, async () => {
    const recipients = Array.from({ length: racing }, freshAddress);
    const ids: number[] = [];
    for (const to of recipients)
      ids.push((await withdraw({ currency: "ETH", amount: "0.01", address: to })).id);
    const [nonceRow] = await queryRows<{ next: string }>(
      database.db,
      sql`select next_nonce::text as next from evm_hot_wallets`,
    );
    await Promise.all([runDueJobs(database.db, handlers), runDueJobs(database.db, handlers)]);

    for (const to of recipients) expect(await node.publicClient.getBalance({ address: to })).toBe(10n ** 16n);
    const nonces = await queryRows<{ nonce: string }>(
      database.db,
      sql`select nonce::text from evm_payouts where reference in (${sql.join(
        ids.map((id) => sql`${withdrawalReference(id)}`),
        sql`, `,
      )}) order by evm_payouts.nonce`,
    );
    const first = BigInt(nonceRow!.next);
    expect(nonces.map((n) => BigInt(n.nonce))).toEqual(recipients.map((_, i) => first + BigInt(i)));
    expect(await node.publicClient.getTransactionCount({ address: hotWallet })).toBe(
      Number(first) + recipients.length,
    );
    await confirmPayouts();
    for (const id of ids) expect(await status(id)).toBe("confirmed");
    await expectLedgerBalanced();
    // 200 real transactions signed, sent and mined take 25 to 50 s on this machine kind (more on a busy
    // one): the deadline guards against a hang, it is not a timing assertion.
  }, 180_000);

  it("a payout stuck unmined past the threshold is replaced (same nonce, fees raised 12.5 %); the replacement is mined once and is the txid", async () => {
    const anvil = testClientFor(node.url);
    const clock = testClock();
    const replacement: PayoutReplacement = {
      wallet: async (db) => deriveHotWallet(await loadHdSeed(db, database.box)),
      afterSeconds: 300,
      ceilingGwei: 200,
      clock,
    };
    const to = freshAddress();
    const nonceBefore = await node.publicClient.getTransactionCount({ address: hotWallet });
    const readPayout = async (reference: string) =>
      (
        await queryRows<{
          nonce: string;
          tx_hash: string;
          raw_transaction: string;
          replaced_hashes: string[];
        }>(
          database.db,
          sql`select nonce::text, tx_hash, raw_transaction, replaced_hashes from evm_payouts where reference = ${reference}`,
        )
      )[0]!;
    // Blocks stop coming: the payout is signed and sent, and waits in the node's pool.
    await anvil.setAutomine(false);
    let reference: string;
    let id: number;
    try {
      ({ id } = await withdraw({ currency: "ETH", amount: "0.2", address: to }));
      reference = withdrawalReference(id);
      await runDueJobs(database.db, handlers);
      const first = await readPayout(reference);
      expect(await status(id)).toBe("sending");

      // Before the threshold it is only sent again.
      clock.advance(299);
      expect(await trackEvmPayouts(database.db, { network, replacement })).toMatchObject({
        replaced: 0,
        resent: 1,
      });
      expect((await readPayout(reference)).tx_hash).toBe(first.tx_hash);

      // Past it, it is signed again with the same nonce and higher fees, stored, then sent.
      clock.advance(2);
      expect(await trackEvmPayouts(database.db, { network, replacement })).toMatchObject({ replaced: 1 });
      const second = await readPayout(reference);
      expect(second.nonce).toBe(first.nonce);
      expect(second.tx_hash).not.toBe(first.tx_hash);
      expect(second.replaced_hashes).toEqual([first.tx_hash]);
      const before = parseTransaction(first.raw_transaction as `0x${string}`);
      const after = parseTransaction(second.raw_transaction as `0x${string}`);
      expect(after.nonce).toBe(before.nonce);
      expect(after.to).toBe(before.to);
      expect(after.value).toBe(before.value);
      // At least +12.5 % on both (x * 9/8), within the 200 gwei ceiling.
      expect(after.maxFeePerGas! * 8n).toBeGreaterThanOrEqual(before.maxFeePerGas! * 9n);
      expect(after.maxPriorityFeePerGas! * 8n).toBeGreaterThanOrEqual(before.maxPriorityFeePerGas! * 9n);
      expect(after.maxFeePerGas!).toBeLessThanOrEqual(200n * 10n ** 9n);
      // The node now holds the replacement in place of the first attempt.
      expect((await node.publicClient.getTransaction({ hash: second.tx_hash as `0x${string}` })).nonce).toBe(
        Number(first.nonce),
      );

      // Not due again right away: the replacement is only resent.
      expect(await trackEvmPayouts(database.db, { network, replacement })).toMatchObject({ replaced: 0 });
      await mineBlocks(node.url, 1);
    } finally {
      await anvil.setAutomine(true);
    }
    expect(await confirmPayouts()).toMatchObject({ confirmed: 1 });
    const settled = await readPayout(reference);
    expect(await node.publicClient.getBalance({ address: to })).toBe(2n * 10n ** 17n);
    expect(await node.publicClient.getTransactionCount({ address: hotWallet })).toBe(nonceBefore + 1);
    const receipt = await node.publicClient.getTransactionReceipt({ hash: settled.tx_hash as `0x${string}` });
    expect(receipt.status).toBe("success");
    expect(settled.replaced_hashes).toHaveLength(1);
    await expect(
      node.publicClient.getTransactionReceipt({ hash: settled.replaced_hashes[0] as `0x${string}` }),
    ).rejects.toThrow();
    const [row] = await queryRows<{ txid: string }>(
      database.db,
      sql`select txid from withdrawals where transaction_id = ${id!}`,
    );
    expect(row!.txid).toBe(settled.tx_hash);
    const info = JSON.stringify(await describeTransaction(database.db, id!));
    expect(info).toContain(settled.tx_hash);
    expect(info).not.toContain(settled.replaced_hashes[0]);
    expect(await status(id!)).toBe("confirmed");
    await expectLedgerBalanced();
  });

  it("a stuck payout the fee ceiling keeps from being replaced is logged once, not on every pass", async () => {
    const anvil = testClientFor(node.url);
    const clock = testClock();
    const warnings = vi.spyOn(console, "warn").mockImplementation(() => {});
    await anvil.setAutomine(false);
    try {
      const { id } = await withdraw({ currency: "ETH", amount: "0.1", address: freshAddress() });
      await runDueJobs(database.db, handlers);
      const [stored] = await queryRows<{ raw_transaction: string }>(
        database.db,
        sql`select raw_transaction from evm_payouts where reference = ${withdrawalReference(id)}`,
      );
      const fee = parseTransaction(stored!.raw_transaction as `0x${string}`).maxFeePerGas!;
      // A ceiling at the fee it already offers (whole gwei, rounded down): no raise of 12.5 % fits under it.
      const replacement: PayoutReplacement = {
        wallet: async (db) => deriveHotWallet(await loadHdSeed(db, database.box)),
        afterSeconds: 300,
        ceilingGwei: Number(fee / 10n ** 9n),
        clock,
      };
      clock.advance(301);
      for (let pass = 0; pass < 3; pass++)
        expect(await trackEvmPayouts(database.db, { network, replacement })).toMatchObject({
          replaced: 0,
          resent: 1,
        });
      const notReplaced = warnings.mock.calls.filter((c) =>
        String(c[0]).includes(`payout ${withdrawalReference(id)} not replaced`),
      );
      expect(notReplaced).toHaveLength(1);
      expect(String(notReplaced[0]![0])).toMatch(/would pass the ceiling/);
    } finally {
      warnings.mockRestore();
      await anvil.setAutomine(true);
    }
    await mineBlocks(node.url, 1);
    await confirmPayouts();
  });

  it("books the fee really paid against the network fee charged in platform:network_fees; the ledger still balances", async () => {
    const platformBalance = async (kind: string, currency: string) => {
      const [row] = await queryRows<{ balance: string }>(
        database.db,
        sql`select balance::text from ledger_accounts where merchant_id is null and kind = ${kind} and currency = ${currency}`,
      );
      return row ? parseDecimal(row.balance) : 0n;
    };
    const snapshot = async () => ({
      networkEth: await platformBalance("platform:network_fees", "ETH"),
      networkUsdt: await platformBalance("platform:network_fees", "USDTE"),
      feesEth: await platformBalance("platform:fees", "ETH"),
      feesUsdt: await platformBalance("platform:fees", "USDTE"),
      chainEth: await platformBalance("platform:chain", "ETH"),
    });
    const charged = async (id: number) => {
      const [row] = await queryRows<{ network_fee: string; withdrawal_fee: string }>(
        database.db,
        sql`select network_fee::text, withdrawal_fee::text from withdrawals where transaction_id = ${id}`,
      );
      return { network: parseDecimal(row!.network_fee), withdrawal: parseDecimal(row!.withdrawal_fee) };
    };
    /** The gas the receipt says was paid, in 10^-8 ETH, rounded up once. */
    const paidOf = async (id: number) => {
      const [payout] = await payoutRows(withdrawalReference(id));
      const receipt = await node.publicClient.getTransactionReceipt({
        hash: payout!.tx_hash as `0x${string}`,
      });
      const wei = receipt.gasUsed * receipt.effectiveGasPrice;
      expect(wei).toBeGreaterThan(0n);
      return wei / 10n ** 10n + (wei % 10n ** 10n === 0n ? 0n : 1n);
    };

    // An ETH payout: the charge and the gas are both ETH, so the account holds charged − paid.
    let before = await snapshot();
    const eth = await withdraw({ currency: "ETH", amount: "0.03", address: freshAddress() });
    await runDueJobs(database.db, handlers);
    expect(await platformBalance("platform:network_fees", "ETH")).toBe(before.networkEth);
    await confirmPayouts();
    expect(await status(eth.id)).toBe("confirmed");
    const ethCharge = await charged(eth.id);
    expect(ethCharge.network).toBeGreaterThan(0n);
    const ethPaid = await paidOf(eth.id);
    let after = await snapshot();
    expect(after.networkEth - before.networkEth).toBe(ethCharge.network - ethPaid);
    expect(after.feesEth - before.feesEth).toBe(ethCharge.withdrawal);
    expect(after.chainEth - before.chainEth).toBe(parseDecimal("0.03") + ethPaid);
    await expectLedgerBalanced();

    // A token payout: charged in USDTE, paid in ETH; each currency keeps its own side.
    before = after;
    const token = await withdraw({ currency: "USDTE", amount: "13", address: freshAddress() });
    await runDueJobs(database.db, handlers);
    await confirmPayouts();
    expect(await status(token.id)).toBe("confirmed");
    const tokenCharge = await charged(token.id);
    const tokenPaid = await paidOf(token.id);
    after = await snapshot();
    expect(after.networkUsdt - before.networkUsdt).toBe(tokenCharge.network);
    expect(after.feesUsdt - before.feesUsdt).toBe(tokenCharge.withdrawal);
    expect(after.networkEth - before.networkEth).toBe(-tokenPaid);
    expect(after.chainEth - before.chainEth).toBe(tokenPaid);
    await expectLedgerBalanced();
  });

  it("production mode: a currency without a real payout network is refused at creation, never queued", async () => {
    const request = withdrawalRequest.parse({
      currency: "BTC",
      amount: "0.01",
      address: "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu",
      foreign_id: "production-btc",
      end_user_reference: "payee",
      sender_type: "legal",
      sender_data: { legal_name: "Shop GmbH", country_of_registration: "DEU" },
      receiver_type: "self",
    });
    configureOffering({
      mode: "production",
      realNetworks: { ethereum: "Ethereum (chain id 31337)" },
      realCurrencies: ["ETH", "USDTE", "USDC"],
      contracts: { USDTE: usdt, USDC: usdc },
      chainIds: { ethereum: 31337 },
      confirmations: {},
      decimals: { USDTE: 6, USDC: 6 },
    });
    // The API's schema refuses it with the invalid-currency message...
    expect(withdrawalRequest.safeParse({ ...request, foreign_id: "x" }).success).toBe(false);
    // ...and the engine, reached another way, refuses it before debiting or queueing anything.
    const jobsBefore = await queryRows<{ count: number }>(
      database.db,
      sql`select count(*)::int as count from jobs`,
    );
    expect(
      await fieldsOf(createWithdrawal(database.db, withdrawalInput(merchantId, request, pricing))),
    ).toEqual({
      currency: "BTC cannot be withdrawn here: this installation has no real BTC network to send it on.",
    });
    const jobsAfter = await queryRows<{ count: number }>(
      database.db,
      sql`select count(*)::int as count from jobs`,
    );
    expect(jobsAfter[0]!.count).toBe(jobsBefore[0]!.count);

    // A production payout router never falls back to the sandbox chain.
    const router: ChainAdapter = payoutAdapter({ mode: "production", evm: config, box: database.box });
    await expect(
      router.broadcast(database.db, {
        reference: "withdrawal:0",
        currency: "BTC",
        address: request.address,
        tag: null,
        amount: 1n,
      }),
    ).rejects.toThrow(/production never uses the sandbox/);
  });
});
