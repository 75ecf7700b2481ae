import { sql } from "drizzle-orm";
import { type Address, formatUnits } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { connectEvmNetwork, type EvmNetwork } from "@/lib/chain/evm/evm-network";
import { deriveHotWallet, hotWalletAddress } from "@/lib/chain/evm/payout/hot-wallet";
import { trackEvmPayouts } from "@/lib/chain/evm/payout/track-evm-payouts";
import { evmReconcileTask } from "@/lib/chain/evm/reconcile/evm-reconcile-task";
import type { Reconciliation } from "@/lib/chain/evm/reconcile/reconcile-evm-chain";
import { sweepEvmDeposits } from "@/lib/chain/evm/sweep/sweep-evm-deposits";
import { trackEvmSweeps } from "@/lib/chain/evm/sweep/track-evm-sweeps";
import { watchEvmChain } from "@/lib/chain/evm/watch-evm-chain";
import { forgetHdSeed, loadHdSeed } from "@/lib/chain/hd-seed";
import { forgetAccountKeys, loadAccountKeys } from "@/lib/chain/load-account-keys";
import { runCliCommand } from "@/lib/cli/commands";
import type { EvmConfig } from "@/lib/config";
import { queryRows } from "@/lib/db/client";
import { jobHandlers, payoutAdapter } from "@/lib/host/job-handlers";
import { runDueJobs } from "@/lib/jobs/runner";
import { creditSandboxBalance } from "@/lib/ledger/credit-sandbox-balance";
import { parseDecimal, parseStoredAmount } from "@/lib/money";
import { withdrawalRequest } from "@/lib/schemas/withdrawals";
import { createWithdrawal } from "@/lib/withdrawals/create-withdrawal";
import { withdrawalInput } from "@/lib/withdrawals/from-request";
import {
  type AnvilNode,
  deployToken,
  mineBlocks,
  payEth,
  payToken,
  startTestAnvil,
  TOKEN_ABI,
  testClientFor,
} from "../support/anvil";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { createFixedInvoice, pricing, testSeed } from "../support/invoices";
import { ledgerInvariants } from "../support/ledger";
import { createTestMerchant, fieldsOf } from "../support/merchants";

const CONFIRMATIONS = 2;
const WEI_PER_LEDGER_UNIT = 10n ** 10n;

describe(`reconciliation of on-chain holdings with the ledger on a real anvil node (${testDriver})`, () => {
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
  let usdcFundingHash = "";

  const env = () => ({ db: database.db, box: database.box, isSandbox: true, evm: config });
  const reconcile = async () =>
    (await runCliCommand({ name: "chain.reconcile", args: {} }, env())) as Reconciliation;
  const watch = () => watchEvmChain(database.db, { network, pricing });
  const sweep = () =>
    sweepEvmDeposits(database.db, {
      network,
      sources: {
        // The test invoices hand out addresses from the test seed (tests/support/invoices.ts).
        seed: async () => testSeed,
        hotWallet: async (db) => deriveHotWallet(await loadHdSeed(db, database.box)),
        minimums: { ETH: parseDecimal("0.01"), USDTE: parseDecimal("10") },
        ceilingGwei: 200,
      },
    });
  const settle = async () => {
    await mineBlocks(node.url, CONFIRMATIONS);
    await trackEvmPayouts(database.db, { network });
    await trackEvmSweeps(database.db, { network });
    await watch();
  };
  const withdraw = (input: { currency: string; amount: string }) =>
    createWithdrawal(
      database.db,
      withdrawalInput(
        merchantId,
        withdrawalRequest.parse({
          ...input,
          address: privateKeyToAccount(generatePrivateKey()).address,
          foreign_id: `reconcile-${++counter}`,
          end_user_reference: "payee",
          sender_type: "legal",
          sender_data: { legal_name: "Shop GmbH", country_of_registration: "DEU" },
          receiver_type: "self",
        }),
        pricing,
      ),
    );
  const fund = async (currency: string, txid: string) =>
    runCliCommand({ name: "chain.fund", args: { currency, txid } }, env());
  const tokenBalance = (token: Address, owner: string, blockNumber?: bigint) =>
    node.publicClient.readContract({
      address: token,
      abi: TOKEN_ABI,
      functionName: "balanceOf",
      args: [owner as Address],
      blockNumber,
    });

  beforeAll(async () => {
    node = await startTestAnvil();
    usdt = await deployToken(node.url, { symbol: "USDT", decimals: 6, supply: 10n ** 15n });
    usdc = await deployToken(node.url, { symbol: "USDC", decimals: 6, supply: 10n ** 15n });
    database = await createTestDatabase();
    forgetHdSeed();
    forgetAccountKeys();
    merchantId = await createTestMerchant(database, "Reconcile");
    for (const currency of ["ETH", "USDTE", "USDC"])
      await creditSandboxBalance(database.db, {
        merchantId,
        currency,
        amount: parseDecimal("100"),
        isSandbox: true,
      });
    config = { rpcUrl: node.url, tokens: { USDTE: usdt, USDC: usdc }, confirmations: CONFIRMATIONS };
    network = await connectEvmNetwork(config);
    handlers = jobHandlers({
      pricing,
      mail: { smtpUrl: undefined, from: "Kassa <test@kassa.test>" },
      chain: payoutAdapter({ mode: "sandbox", evm: config, box: database.box }),
    });
    hotWallet = hotWalletAddress(await loadAccountKeys(database.db, database.box));
    await watch();
  });
  afterAll(async () => {
    await database?.drop();
    await node?.stop();
  });

  it("counts the operator's funding only once it is recorded, from the chain, once", async () => {
    const eth = await payEth(node.url, { to: hotWallet, value: 10n * 10n ** 18n + 7n });
    const tokens = await payToken(node.url, { token: usdt, to: hotWallet, value: 5_000n * 10n ** 6n });
    const usdcFunding = await payToken(node.url, { token: usdc, to: hotWallet, value: 1_000n * 10n ** 6n });
    usdcFundingHash = usdcFunding.transactionHash;
    await watch();
    // Not recorded yet: the operator's money is a difference nothing explains.
    const before = await reconcile();
    expect(before.is_reconciled).toBe(false);
    expect(before.currencies.ETH!.unexplained).toBe("10.000000000000000007");

    // Mined in the last block: one confirmation of the two required.
    expect(await fieldsOf(fund("USDC", usdcFundingHash))).toEqual({
      txid: "Wait for 2 confirmations, then record it.",
    });
    await mineBlocks(node.url, CONFIRMATIONS);
    expect(await fund("ETH", eth.transactionHash)).toEqual({
      txid: eth.transactionHash,
      currency: "ETH",
      amount: "10.00000000",
      recorded: true,
    });
    expect(await fund("ETH", eth.transactionHash)).toMatchObject({ recorded: false });
    expect((await fieldsOf(fund("USDC", tokens.transactionHash))).txid).toMatch(
      /sent no USDC to the hot wallet/,
    );
    expect(await fund("USDTE", tokens.transactionHash)).toMatchObject({
      amount: "5000.00000000",
      recorded: true,
    });
    await watch();
    const after = await reconcile();
    // USDC's funding is still unrecorded; ETH's 7 wei below 10^-8 are dust.
    expect(after.currencies.ETH).toMatchObject({
      hot_wallet: "10.000000000000000007",
      ledger: "10",
      unexplained: "0",
      is_reconciled: true,
    });
    expect(after.currencies.ETH!.explained.dust).toBe("0.000000000000000007");
    expect(after.currencies.USDTE).toMatchObject({ on_chain: "5000", ledger: "5000", is_reconciled: true });
    expect(after.currencies.USDC).toMatchObject({ unexplained: "1000", is_reconciled: false });
  });

  it("is exact after a mixed run of deposits, sweeps and payouts, in flight and settled", async () => {
    // The USDC funding of the first test, recorded now.
    await fund("USDC", usdcFundingHash);

    // Deposits: ETH with 12,345 wei of dust below 10^-8, and a token.
    const ethInvoice = await createFixedInvoice(database.db, merchantId, "ETH");
    await payEth(node.url, {
      to: ethInvoice.address!.address,
      value: ethInvoice.invoice.senderAmount! * WEI_PER_LEDGER_UNIT + 12_345n,
    });
    const tokenInvoice = await createFixedInvoice(database.db, merchantId, "USDTE");
    await payToken(node.url, {
      token: usdt,
      to: tokenInvoice.address!.address,
      value: tokenInvoice.invoice.senderAmount! / 100n,
    });
    await watch();
    // Seen, not yet credited: on chain, not in the ledger, and said so.
    const seen = await reconcile();
    expect(seen.is_reconciled).toBe(true);
    expect(seen.currencies.USDTE!.explained.payments_not_credited).toBe(
      formatUnits(tokenInvoice.invoice.senderAmount!, 8),
    );
    await mineBlocks(node.url, CONFIRMATIONS);
    await watch();
    const credited = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from deposits where status = 'credited'`,
    );
    expect(credited[0]!.n).toBe(2);

    // Sweeps: ETH at once; the token after a gas top-up from the hot wallet.
    expect(await sweep()).toEqual({ swept: 1, toppedUp: 1 });
    expect(await sweep()).toEqual({ swept: 1, toppedUp: 0 });
    // Payouts: ETH and both tokens, broadcast and mined (anvil mines at once), not yet confirmed.
    await withdraw({ currency: "ETH", amount: "0.12345678" });
    await withdraw({ currency: "USDTE", amount: "12.345678" });
    await withdraw({ currency: "USDC", amount: "25" });
    expect(await runDueJobs(database.db, handlers)).toBeGreaterThan(0);
    await watch();
    const inFlight = await reconcile();
    expect(inFlight.is_reconciled).toBe(true);
    // The gas of everything mined and not yet confirmed is paid on chain, not yet booked.
    expect(inFlight.currencies.ETH!.explained.gas_not_booked.startsWith("-")).toBe(true);

    await settle();
    // One more ETH payment, seen and not confirmed at the end.
    const late = await createFixedInvoice(database.db, merchantId, "ETH");
    await payEth(node.url, {
      to: late.address!.address,
      value: late.invoice.senderAmount! * WEI_PER_LEDGER_UNIT,
    });
    await watch();

    const result = await reconcile();
    expect(result.is_reconciled).toBe(true);
    const block = BigInt(result.block);
    expect(block).toBe(await node.publicClient.getBlockNumber({ cacheTime: 0 }));

    // Independently: what the addresses hold at that block, read here from the node.
    const addresses = [ethInvoice, tokenInvoice, late].map((i) => i.address!.address as Address);
    let eth = await node.publicClient.getBalance({ address: hotWallet, blockNumber: block });
    let usdtHeld = await tokenBalance(usdt, hotWallet, block);
    for (const address of addresses) {
      eth += await node.publicClient.getBalance({ address, blockNumber: block });
      usdtHeld += await tokenBalance(usdt, address, block);
    }
    expect(result.currencies.ETH!.on_chain).toBe(formatUnits(eth, 18));
    expect(result.currencies.USDTE!.on_chain).toBe(formatUnits(usdtHeld, 6));

    // The ledger's side: the other side of platform:chain.
    const chainAccounts = await queryRows<{ currency: string; balance: string }>(
      database.db,
      sql`select currency, balance::text as balance from ledger_accounts
          where merchant_id is null and kind = 'platform:chain'`,
    );
    const ledgerOf = (currency: string) =>
      -parseStoredAmount(chainAccounts.find((a) => a.currency === currency)!.balance);
    expect(result.currencies.ETH!.ledger).toBe(formatUnits(ledgerOf("ETH"), 8));

    // Every gas Kassa paid, from the receipts: booked rounded up to 10^-8 ETH, once each.
    const hashes = await queryRows<{ tx_hash: string }>(
      database.db,
      sql`select tx_hash from evm_payouts union all select tx_hash from evm_sweeps`,
    );
    expect(hashes).toHaveLength(6);
    let rounding = 0n;
    for (const { tx_hash } of hashes) {
      const receipt = await node.publicClient.getTransactionReceipt({ hash: tx_hash as `0x${string}` });
      const wei = receipt.gasUsed * receipt.effectiveGasPrice;
      rounding += (WEI_PER_LEDGER_UNIT - (wei % WEI_PER_LEDGER_UNIT)) % WEI_PER_LEDGER_UNIT;
    }
    expect(result.currencies.ETH!.explained).toEqual({
      dust: formatUnits(7n + 12_345n, 18),
      payments_not_credited: formatUnits(late.invoice.senderAmount!, 8),
      payouts_in_flight: "0",
      gas_not_booked: "0",
      gas_rounding: formatUnits(rounding, 18),
    });
    // On chain minus ledger is exactly what is explained.
    expect(eth - ledgerOf("ETH") * WEI_PER_LEDGER_UNIT).toBe(
      7n + 12_345n + late.invoice.senderAmount! * WEI_PER_LEDGER_UNIT + rounding,
    );
    expect(result.currencies.USDTE).toMatchObject({ difference: "0", unexplained: "0" });
    expect(result.currencies.USDC).toMatchObject({ on_chain: "975", ledger: "975", unexplained: "0" });
    // Kassa's own gas top-up reached a token's address: no incident for it.
    expect(await runCliCommand({ name: "chain.incidents", args: {} }, env())).toEqual({ incidents: [] });
    expect(await ledgerInvariants(database.db)).toEqual({
      nonZeroCurrencies: [],
      accountsNotMatchingEntries: 0,
      negativeMerchantBalances: 0,
    });
  });

  it("reports money moved behind Kassa's back, and the periodic pass logs it once per change", async () => {
    const spied = vi.spyOn(console, "error").mockImplementation(() => {});
    // Only the reconciliation's reports (a gas top-up's transfer is logged by the watcher too).
    const reports = () => spied.mock.calls.filter((c) => /RECONCILIATION/.test(String(c[0])));
    const logs = vi.spyOn(console, "log").mockImplementation(() => {});
    try {
      const task = evmReconcileTask({ config, box: database.box });
      await task.run(database.db);
      await task.run(database.db);
      expect(reports()).toHaveLength(0);

      const held = await node.publicClient.getBalance({ address: hotWallet });
      // Money appears in the hot wallet that no one recorded (a block is mined and read after it).
      await testClientFor(node.url).setBalance({ address: hotWallet, value: held + 1_000_000n });
      await mineBlocks(node.url, 1);
      await watch();
      const result = await reconcile();
      expect(result.is_reconciled).toBe(false);
      expect(result.currencies.ETH).toMatchObject({ unexplained: "0.000000000001", is_reconciled: false });
      expect(result.currencies.USDTE!.is_reconciled).toBe(true);

      // Seen twice before it is reported, then not again while it stays the same.
      await task.run(database.db);
      expect(reports()).toHaveLength(0);
      await task.run(database.db);
      await task.run(database.db);
      expect(reports()).toHaveLength(1);
      expect(String(reports()[0]![0])).toMatch(/RECONCILIATION MISMATCH .* ETH 0\.000000000001/);

      // A different difference is reported again; the return to agreement once.
      await testClientFor(node.url).setBalance({ address: hotWallet, value: held - 5n });
      await mineBlocks(node.url, 1);
      await watch();
      await task.run(database.db);
      await task.run(database.db);
      expect(reports()).toHaveLength(2);
      expect(String(reports()[1]![0])).toMatch(/ETH -0\.000000000000000005/);
      await testClientFor(node.url).setBalance({ address: hotWallet, value: held });
      await mineBlocks(node.url, 1);
      await watch();
      await task.run(database.db);
      await task.run(database.db);
      await task.run(database.db);
      expect(reports()).toHaveLength(2);
      expect(logs.mock.calls.filter((c) => /match the ledger again/.test(String(c[0])))).toHaveLength(1);
    } finally {
      spied.mockRestore();
      logs.mockRestore();
    }
  });

  it("shows the payouts that wait for a short hot wallet and how much it lacks; they go once it is funded", async () => {
    await creditSandboxBalance(database.db, {
      merchantId,
      currency: "USDC",
      amount: parseDecimal("5000"),
      isSandbox: true,
    });
    const empty = await runCliCommand({ name: "chain.payouts", args: {} }, env());
    expect(empty).toMatchObject({ payouts: [], gas_estimate: "0.00000000" });
    const { id } = await withdraw({ currency: "USDC", amount: "2000" });
    await runDueJobs(database.db, handlers);
    const [row] = await queryRows<{ status: string }>(
      database.db,
      sql`select status from transactions where id = ${id}`,
    );
    expect(row!.status).toBe("processing");

    const waiting = (await runCliCommand({ name: "chain.payouts", args: {} }, env())) as {
      payouts: { id: number; currency: string; amount: string }[];
      currencies: Record<string, { waiting: string; count: number; available: string; missing: string }>;
      gas_estimate: string;
    };
    expect(waiting.payouts.map((p) => [p.id, p.currency, p.amount])).toEqual([[id, "USDC", "2000.00000000"]]);
    const usdcHeld = await tokenBalance(usdc, hotWallet);
    expect(waiting.currencies.USDC).toEqual({
      waiting: "2000.00000000",
      count: 1,
      available: formatUnits(usdcHeld, 6).replace(/^(\d+)$/, "$1.00000000"),
      missing: "1025.00000000",
    });
    // Its gas is estimated in ETH, which the hot wallet has.
    expect(parseDecimal(waiting.gas_estimate)).toBeGreaterThan(0n);
    expect(waiting.currencies.ETH!.missing).toBe("0.00000000");

    // The operator sends what is missing and records it; the payout goes out on the next pass.
    const funding = await payToken(node.url, { token: usdc, to: hotWallet, value: 1025n * 10n ** 6n });
    await mineBlocks(node.url, CONFIRMATIONS);
    await fund("USDC", funding.transactionHash);
    // The waiting job's retry comes due (its backoff schedule is the job runner's, tested there).
    await database.db.execute(
      sql`update jobs set run_at = now() where status = 'queued' and payload->>'withdrawalId' = ${String(id)}`,
    );
    await runDueJobs(database.db, handlers);
    expect(await runCliCommand({ name: "chain.payouts", args: {} }, env())).toMatchObject({ payouts: [] });
    await settle();
    expect(await tokenBalance(usdc, hotWallet)).toBe(0n);
    expect((await reconcile()).currencies.USDC).toMatchObject({
      on_chain: "0",
      ledger: "0",
      is_reconciled: true,
    });
  });
});
