import { sql } from "drizzle-orm";
import { type Address, parseTransaction } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectEvmNetwork, type EvmNetwork } from "@/lib/chain/evm/evm-network";
import { deriveHotWallet } from "@/lib/chain/evm/payout/hot-wallet";
import { trackEvmPayouts } from "@/lib/chain/evm/payout/track-evm-payouts";
import type { SweepReplacement } from "@/lib/chain/evm/sweep/replace-stuck-sweep";
import { type SweepSources, sweepEvmDeposits } from "@/lib/chain/evm/sweep/sweep-evm-deposits";
import { trackEvmSweeps } from "@/lib/chain/evm/sweep/track-evm-sweeps";
import { watchEvmChain } from "@/lib/chain/evm/watch-evm-chain";
import { forgetHdSeed, loadHdSeed } from "@/lib/chain/hd-seed";
import { runCliCommand } from "@/lib/cli/commands";
import { queryRows } from "@/lib/db/client";
import { listBalances } from "@/lib/ledger/list-balances";
import { parseDecimal } from "@/lib/money";
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
import { testClock } from "../support/clock";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { createFixedInvoice, pricing, testSeed } from "../support/invoices";
import { ledgerInvariants } from "../support/ledger";
import { createTestMerchant } from "../support/merchants";

const CONFIRMATIONS = 2;
const WEI_PER_LEDGER_UNIT = 10n ** 10n;

describe(`EVM sweeps of deposit addresses into the hot wallet on a real anvil node (${testDriver})`, () => {
  let node: AnvilNode;
  let database: TestDatabase;
  let network: EvmNetwork;
  let merchantId: number;
  let usdt: Address;
  let hotWallet: Address;
  let sources: SweepSources;

  const watch = () => watchEvmChain(database.db, { network, pricing });
  const sweep = () => sweepEvmDeposits(database.db, { network, sources });
  const track = () => trackEvmSweeps(database.db, { network });
  const tokenBalance = (owner: string) =>
    node.publicClient.readContract({
      address: usdt,
      abi: TOKEN_ABI,
      functionName: "balanceOf",
      args: [owner as Address],
    });
  const networkFees = async () => {
    const [row] = await queryRows<{ balance: string }>(
      database.db,
      sql`select balance::text from ledger_accounts
          where merchant_id is null and kind = 'platform:network_fees' and currency = 'ETH'`,
    );
    return row ? parseDecimal(row.balance) : 0n;
  };
  /** Gas in 10^-8 ETH, rounded up once, from the receipt of `hash`. */
  const gasOf = async (hash: string) => {
    const receipt = await node.publicClient.getTransactionReceipt({ hash: hash as `0x${string}` });
    const wei = receipt.gasUsed * receipt.effectiveGasPrice;
    return { wei, units: wei / WEI_PER_LEDGER_UNIT + (wei % WEI_PER_LEDGER_UNIT === 0n ? 0n : 1n) };
  };
  const sweepsOf = (address: string) =>
    queryRows<{ id: number; tx_hash: string; base_amount: string; status: string; fee_paid: string | null }>(
      database.db,
      sql`select id, tx_hash, base_amount::text, status, fee_paid::text from evm_sweeps
          where from_address = ${address.toLowerCase()} order by id`,
    );
  const rawOf = async (id: number) =>
    (
      await queryRows<{ raw: `0x${string}` }>(
        database.db,
        sql`select raw_transaction as raw from evm_sweeps where id = ${id}`,
      )
    )[0]!.raw;
  const expectLedgerBalanced = async () =>
    expect(await ledgerInvariants(database.db)).toEqual({
      nonZeroCurrencies: [],
      accountsNotMatchingEntries: 0,
      negativeMerchantBalances: 0,
    });

  beforeAll(async () => {
    node = await startTestAnvil();
    usdt = await deployToken(node.url, { symbol: "USDT", decimals: 6, supply: 10n ** 15n });
    database = await createTestDatabase();
    forgetHdSeed();
    merchantId = await createTestMerchant(database, "Sweeps");
    network = await connectEvmNetwork({
      rpcUrl: node.url,
      tokens: { USDTE: usdt },
      confirmations: CONFIRMATIONS,
    });
    hotWallet = deriveHotWallet(await loadHdSeed(database.db, database.box)).address;
    await payEth(node.url, { to: hotWallet, value: 10n ** 18n });
    sources = {
      // The test invoices hand out addresses from the test seed (tests/support/invoices.ts).
      seed: async () => testSeed,
      hotWallet: async (db) => deriveHotWallet(await loadHdSeed(db, database.box)),
      minimums: { ETH: parseDecimal("0.01"), USDTE: parseDecimal("10") },
      ceilingGwei: 200,
    };
    await watch();
  });
  afterAll(async () => {
    await database?.drop();
    await node?.stop();
  });

  it("sweeps ETH minus the gas once its payment confirmed, once; the gas is booked, no merchant balance moves", async () => {
    const invoice = await createFixedInvoice(database.db, merchantId, "ETH");
    const address = invoice.address!.address;
    const paid = invoice.invoice.senderAmount! * WEI_PER_LEDGER_UNIT;
    expect(paid).toBeGreaterThan(parseDecimal("0.01") * WEI_PER_LEDGER_UNIT);
    await payEth(node.url, { to: address, value: paid });
    await watch();
    // Seen but not confirmed: it could still be reorganised away, so it stays.
    expect(await sweep()).toEqual({ swept: 0, toppedUp: 0 });
    await mineBlocks(node.url, CONFIRMATIONS);
    expect((await watch()).credited).toBe(1);
    const merchantBefore = await listBalances(database.db, merchantId);
    const feesBefore = await networkFees();
    const hotBefore = await node.publicClient.getBalance({ address: hotWallet });

    expect(await sweep()).toEqual({ swept: 1, toppedUp: 0 });
    // The next pass finds it on its way: nothing signed twice.
    expect(await sweep()).toEqual({ swept: 0, toppedUp: 0 });
    const [stored] = await sweepsOf(address);
    expect(stored).toMatchObject({ status: "signed" });
    await mineBlocks(node.url, CONFIRMATIONS);
    expect(await track()).toMatchObject({ confirmed: 1 });

    const gas = await gasOf(stored!.tx_hash);
    const [settled] = await sweepsOf(address);
    expect(settled).toMatchObject({ status: "confirmed", fee_paid: gas.wei.toString() });
    const swept = BigInt(stored!.base_amount);
    expect(await node.publicClient.getBalance({ address: hotWallet })).toBe(hotBefore + swept);
    // What stays behind is what the max fee reserved beyond the gas really paid.
    expect(await node.publicClient.getBalance({ address: address as Address })).toBe(paid - swept - gas.wei);
    expect(await networkFees()).toBe(feesBefore - gas.units);
    expect(await listBalances(database.db, merchantId)).toEqual(merchantBefore);
    // Below the minimum now: never swept again.
    expect(await sweep()).toEqual({ swept: 0, toppedUp: 0 });
    expect(await track()).toMatchObject({ confirmed: 0 });
    await expectLedgerBalanced();
  });

  it("sweeps a token after topping up its gas from the hot wallet; both gases booked; listed by the CLI", async () => {
    const invoice = await createFixedInvoice(database.db, merchantId, "USDTE");
    const address = invoice.address!.address;
    const units = invoice.invoice.senderAmount! / 100n;
    await payToken(node.url, { token: usdt, to: address, value: units });
    await mineBlocks(node.url, CONFIRMATIONS);
    expect((await watch()).credited).toBe(1);
    const feesBefore = await networkFees();
    const hotTokensBefore = await tokenBalance(hotWallet);

    // No ETH at the address: the hot wallet sends the gas first; the token goes once that is mined
    // (anvil mines it at once), and nothing is sent twice.
    expect(await sweep()).toEqual({ swept: 0, toppedUp: 1 });
    expect(await sweep()).toEqual({ swept: 1, toppedUp: 0 });
    expect(await sweep()).toEqual({ swept: 0, toppedUp: 0 });
    const [topUp] = await queryRows<{ reference: string; tx_hash: string }>(
      database.db,
      sql`select reference, tx_hash from evm_payouts where reference like 'sweep-gas:%'`,
    );
    expect(topUp!.reference).toBe(`sweep-gas:${invoice.address!.id}:1`);
    await mineBlocks(node.url, CONFIRMATIONS);
    expect(await trackEvmPayouts(database.db, { network })).toMatchObject({ confirmed: 1 });
    expect(await track()).toMatchObject({ confirmed: 1 });
    const [settled] = await sweepsOf(address);
    expect(settled).toMatchObject({ status: "confirmed", base_amount: units.toString() });
    expect(await tokenBalance(address)).toBe(0n);
    expect(await tokenBalance(hotWallet)).toBe(hotTokensBefore + units);
    const topUpGas = await gasOf(topUp!.tx_hash);
    const sweepGas = await gasOf(settled!.tx_hash);
    expect(await networkFees()).toBe(feesBefore - topUpGas.units - sweepGas.units);
    await expectLedgerBalanced();

    const listed = (await runCliCommand(
      { name: "chain.sweeps", args: {} },
      { db: database.db, box: database.box, isSandbox: true },
    )) as {
      sweeps: { currency: string; status: string; tx_hash: string }[];
      gas_top_ups: { reference: string }[];
    };
    expect(listed.sweeps.map((s) => [s.currency, s.status, s.tx_hash])).toEqual([
      ["USDTE", "confirmed", settled!.tx_hash],
      ["ETH", "confirmed", expect.any(String)],
    ]);
    expect(listed.gas_top_ups.map((t) => t.reference)).toEqual([topUp!.reference]);
  });

  it("replaces an ETH sweep stuck past the threshold: same nonce, fees raised, the amount lowered by the extra gas", async () => {
    const invoice = await createFixedInvoice(database.db, merchantId, "ETH");
    const address = invoice.address!.address;
    await payEth(node.url, { to: address, value: invoice.invoice.senderAmount! * WEI_PER_LEDGER_UNIT });
    await mineBlocks(node.url, CONFIRMATIONS);
    expect((await watch()).credited).toBe(1);
    const clock = testClock();
    const replacement: SweepReplacement = {
      seed: async () => testSeed,
      afterSeconds: 300,
      ceilingGwei: 200,
      clock,
    };
    const anvil = testClientFor(node.url);
    const hotBefore = await node.publicClient.getBalance({ address: hotWallet });
    // Blocks stop coming: the sweep is signed, sent, and waits in the node's pool.
    await anvil.setAutomine(false);
    let first: Awaited<ReturnType<typeof sweepsOf>>[number] | undefined;
    let firstRaw: `0x${string}`;
    try {
      expect(await sweep()).toEqual({ swept: 1, toppedUp: 0 });
      [first] = await sweepsOf(address);
      firstRaw = await rawOf(first!.id);
      clock.advance(299);
      expect(await trackEvmSweeps(database.db, { network, replacement })).toMatchObject({
        replaced: 0,
        resent: 1,
      });
      clock.advance(2);
      expect(await trackEvmSweeps(database.db, { network, replacement })).toMatchObject({ replaced: 1 });
    } finally {
      await anvil.setAutomine(true);
    }
    const [second] = await sweepsOf(address);
    expect(second!.tx_hash).not.toBe(first!.tx_hash);
    const before = parseTransaction(firstRaw!);
    const after = parseTransaction(await rawOf(second!.id));
    expect(after.nonce).toBe(before.nonce);
    expect(after.maxFeePerGas! * 8n).toBeGreaterThanOrEqual(before.maxFeePerGas! * 9n);
    // What the higher fee may cost more comes off the amount: the address never spends more than it holds.
    expect(after.value).toBe(before.value! - 21_000n * (after.maxFeePerGas! - before.maxFeePerGas!));
    expect(BigInt(second!.base_amount)).toBe(after.value);

    await mineBlocks(node.url, CONFIRMATIONS);
    expect(await track()).toMatchObject({ confirmed: 1 });
    const [settled] = await sweepsOf(address);
    expect(settled).toMatchObject({ status: "confirmed", tx_hash: second!.tx_hash });
    expect(await node.publicClient.getBalance({ address: hotWallet })).toBe(hotBefore + after.value!);
    await expectLedgerBalanced();
  });
});
