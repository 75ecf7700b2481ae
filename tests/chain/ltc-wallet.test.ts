import { HDKey } from "@scure/bip32";
import { Transaction } from "@scure/btc-signer";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { takeAddress } from "@/lib/addresses/take-address";
import { deriveAccountKeys } from "@/lib/chain/account-keys";
import { bitcoinNetworkOf, outputScriptOf } from "@/lib/chain/address-codec";
import { forgetHdSeed, loadHdSeed } from "@/lib/chain/hd-seed";
import { forgetAccountKeys } from "@/lib/chain/load-account-keys";
import { type UtxoHotWallet, utxoHotWallet } from "@/lib/chain/utxo/hot-wallet/utxo-hot-wallet";
import { trackUtxoPayouts } from "@/lib/chain/utxo/payout/track-utxo-payouts";
import { changeAddressOf } from "@/lib/chain/utxo/payout/utxo-keys";
import type { UtxoReconciliation } from "@/lib/chain/utxo/reconcile/reconcile-utxo-chain";
import { connectUtxoNetwork, type UtxoNetwork } from "@/lib/chain/utxo/utxo-network";
import { withUtxoNetwork } from "@/lib/chain/utxo/utxo-offering";
import { watchUtxoChain } from "@/lib/chain/utxo/watch-utxo-chain";
import { runCliCommand } from "@/lib/cli/commands";
import type { UtxoConfig } from "@/lib/config";
import { configureOffering } from "@/lib/currencies/offering";
import { queryRows } from "@/lib/db/client";
import { inTransaction } from "@/lib/db/transaction";
import { jobHandlers, payoutAdapter } from "@/lib/host/job-handlers";
import { runDueJobs } from "@/lib/jobs/runner";
import { platformAccount } from "@/lib/ledger/accounts";
import { listBalances } from "@/lib/ledger/list-balances";
import { postJournal } from "@/lib/ledger/post-journal";
import { parseDecimal } from "@/lib/money";
import { withdrawalRequest } from "@/lib/schemas/withdrawals";
import { createWithdrawal } from "@/lib/withdrawals/create-withdrawal";
import { withdrawalInput } from "@/lib/withdrawals/from-request";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { pricing } from "../support/invoices";
import { ledgerInvariants } from "../support/ledger";
import {
  coins,
  doubleSpend,
  litoshiOf,
  NODE_START_MS,
  SANDBOX_OFFERING,
  startTestLitecoind,
  type TestLitecoind,
} from "../support/litecoind";
import { createTestMerchant } from "../support/merchants";

const CONFIRMATIONS = 2;

type NodeTransaction = {
  txid: string;
  vin: { txid: string; vout: number }[];
  vout: { value: number; n: number }[];
};

type Wallets = { ltc: { address: string; balances: Record<string, string> } };
type Report = { ltc: UtxoReconciliation; is_reconciled: boolean };

describe(`Litecoin hot wallet and reconciliation on a real litecoind in regtest (${testDriver})`, () => {
  let customer: TestLitecoind;
  let database: TestDatabase;
  let network: UtxoNetwork;
  let config: UtxoConfig;
  let hotWallet: UtxoHotWallet;
  let handlers: ReturnType<typeof jobHandlers>;
  let merchantId: number;
  let counter = 0;

  const cli = (name: string) =>
    runCliCommand(
      { name, args: {} },
      { db: database.db, box: database.box, isSandbox: true, utxo: { LTC: config } },
    );
  const watch = () => watchUtxoChain(database.db, { network, pricing, hotWallet });
  const reconcile = async () => ((await cli("chain.reconcile")) as Report).ltc;
  const transaction = (txid: string) => customer.rpc<NodeTransaction>("getrawtransaction", [txid, true]);
  /** A platform account's balance in LTC, ledger units. */
  const platform = async (kind: string) => {
    const [row] = await queryRows<{ balance: string }>(
      database.db,
      sql`select coalesce(sum(balance), 0)::text as balance from ledger_accounts
          where kind = ${kind} and merchant_id is null and currency = 'LTC'`,
    );
    return parseDecimal(row!.balance);
  };
  const merchantBalance = async () =>
    (await listBalances(database.db, merchantId)).find((b) => b.currency === "LTC")?.balance ?? 0n;
  const fundingCoins = () =>
    queryRows<{ txid: string; status: string; base_amount: string }>(
      database.db,
      sql`select txid, status, base_amount::text from utxo_coins where address = ${hotWallet.address} order by id`,
    );
  const journals = async (kind: string) =>
    Number(
      (
        await queryRows<{ n: string }>(
          database.db,
          sql`select count(*)::text as n from journals where kind = ${kind}`,
        )
      )[0]!.n,
    );
  /** Fee of a transaction as the node sees it: its inputs' values (from their own transactions) less its outputs'. */
  const nodeFee = async (tx: NodeTransaction) => {
    let inputs = 0n;
    for (const input of tx.vin) inputs += litoshiOf((await transaction(input.txid)).vout[input.vout]!.value);
    return inputs - tx.vout.reduce((sum, output) => sum + litoshiOf(output.value), 0n);
  };
  /** What the node's confirmed UTXO set holds at these addresses, read by the node alone. */
  const scanned = async (addresses: string[]) => {
    const scan = await customer.rpc<{ total_amount: number }>("scantxoutset", [
      "start",
      addresses.map((address) => `addr(${address})`),
    ]);
    return litoshiOf(scan.total_amount);
  };
  /** The same at every address Kassa has a coin on. */
  const scannedOnNode = async () =>
    scanned(
      (await queryRows<{ address: string }>(database.db, sql`select distinct address from utxo_coins`)).map(
        (row) => row.address,
      ),
    );
  const expectLedgerBalanced = async () =>
    expect(await ledgerInvariants(database.db)).toEqual({
      nonZeroCurrencies: [],
      accountsNotMatchingEntries: 0,
      negativeMerchantBalances: 0,
    });
  const payKassa = async (litoshi: bigint) => {
    const keys = deriveAccountKeys(await loadHdSeed(database.db, database.box));
    const address = await takeAddress(database.db, keys, {
      merchantId,
      foreignId: `wallet-${++counter}`,
      currency: "LTC",
    });
    return customer.pay(address.address, litoshi);
  };

  beforeAll(async () => {
    customer = await startTestLitecoind();
    database = await createTestDatabase();
    forgetHdSeed();
    forgetAccountKeys();
    merchantId = await createTestMerchant(database, "Litecoin wallet");
    config = { rpcUrl: customer.url, confirmations: CONFIRMATIONS };
    network = await connectUtxoNetwork("LTC", config, "sandbox");
    configureOffering(withUtxoNetwork(SANDBOX_OFFERING, { utxo: { LTC: config } }, "LTC", network));
    hotWallet = utxoHotWallet(deriveAccountKeys(await loadHdSeed(database.db, database.box)), network);
    handlers = jobHandlers({
      pricing,
      mail: { smtpUrl: undefined, from: "Kassa <test@kassa.test>" },
      chain: payoutAdapter({ mode: "sandbox", evm: undefined, utxo: { LTC: config }, box: database.box }),
    });
    await watch();
  }, NODE_START_MS);
  afterAll(async () => {
    configureOffering(undefined);
    forgetAccountKeys();
    await database?.drop();
    await customer?.stop();
  });

  it("shows the hot wallet's address (change index 0 of the seed) and credits the operator's funding at the confirmations, never as a deposit", async () => {
    const shown = (await cli("chain.wallets")) as Wallets;
    // The seed's own private derivation of change index 0: the CLI derived it from the public key alone.
    const seed = await loadHdSeed(database.db, database.box);
    expect(shown).toEqual({
      ltc: { address: changeAddressOf(network, seed, 0).address, balances: { LTC: "0.00000000" } },
    });
    expect(shown.ltc.address).toMatch(/^rltc1/);
    expect((await customer.rpc<{ isvalid: boolean }>("validateaddress", [shown.ltc.address])).isvalid).toBe(
      true,
    );

    const txid = await customer.pay(shown.ltc.address, 250_000_000n);
    await watch();
    expect(await fundingCoins()).toEqual([{ txid, status: "pending", base_amount: "250000000" }]);
    await customer.mine(CONFIRMATIONS - 1);
    expect((await watch()).funded).toBe(0);
    expect(((await cli("chain.wallets")) as Wallets).ltc.balances.LTC).toBe("0.00000000");
    expect(await platform("platform:owner")).toBe(0n);

    await customer.mine(1);
    expect((await watch()).funded).toBe(1);
    expect((await watch()).funded).toBe(0);
    // The balance is what the node's UTXO set holds at the address, now that it has the confirmations.
    const received = await scanned([shown.ltc.address]);
    expect(received).toBe(250_000_000n);
    expect(((await cli("chain.wallets")) as Wallets).ltc.balances.LTC).toBe(coins(received));
    expect(await fundingCoins()).toEqual([{ txid, status: "spendable", base_amount: "250000000" }]);
    expect(await platform("platform:owner")).toBe(250_000_000n);
    expect(await platform("platform:chain")).toBe(-250_000_000n);
    // Not a merchant's deposit: no deposit, no merchant balance.
    const deposits = await queryRows<{ n: string }>(
      database.db,
      sql`select count(*)::text as n from deposits`,
    );
    expect(deposits[0]!.n).toBe("0");
    expect(await merchantBalance()).toBe(0n);
    expect((await reconcile()).currencies.LTC!.unexplained).toBe("0.00000000");
    await expectLedgerBalanced();
  });

  it("takes back a credited funding whose block a reorganisation removed: credited once when mined again, removed when double-spent", async () => {
    const txid = await customer.pay(hotWallet.address, 100_000_000n);
    const [block] = await customer.mine(CONFIRMATIONS);
    expect((await watch()).funded).toBe(1);
    expect(await platform("platform:owner")).toBe(350_000_000n);

    await customer.rpc("invalidateblock", [block]);
    const pass = await watch();
    expect(pass.reorgs).toBe(1);
    // Back in the node's mempool: pending again, its credit reversed.
    expect((await fundingCoins()).find((c) => c.txid === txid)!.status).toBe("pending");
    expect(await platform("platform:owner")).toBe(250_000_000n);
    expect(((await cli("chain.wallets")) as Wallets).ltc.balances.LTC).toBe("2.50000000");
    const waiting = await reconcile();
    expect(waiting.currencies.LTC).toMatchObject({
      unexplained: "0.00000000",
      explained: { payments_not_credited: "1.00000000" },
    });

    await customer.mine(CONFIRMATIONS);
    expect((await watch()).funded).toBe(1);
    expect((await fundingCoins()).find((c) => c.txid === txid)!.status).toBe("spendable");
    expect(await platform("platform:owner")).toBe(350_000_000n);
    expect(await journals("hot_wallet_funding")).toBe(3);
    expect(await journals("hot_wallet_funding_reversed")).toBe(1);

    // A credited funding whose block is gone and which a double spend replaced: removed, its credit reversed.
    const gone = await customer.pay(hotWallet.address, 40_000_000n);
    const [goneBlock] = await customer.mine(CONFIRMATIONS);
    expect((await watch()).funded).toBe(1);
    expect(await platform("platform:owner")).toBe(390_000_000n);
    await customer.rpc("invalidateblock", [goneBlock]);
    await doubleSpend(customer, gone);
    expect((await watch()).reorgs).toBe(1);
    expect((await fundingCoins()).find((c) => c.txid === gone)!.status).toBe("removed");
    expect(await platform("platform:owner")).toBe(350_000_000n);
    expect(((await cli("chain.wallets")) as Wallets).ltc.balances.LTC).toBe("3.50000000");
    await customer.mine(CONFIRMATIONS);
    expect((await watch()).funded).toBe(0);
    expect(await platform("platform:owner")).toBe(350_000_000n);
    expect(await journals("hot_wallet_funding_reversed")).toBe(2);
    await expectLedgerBalanced();
  });

  it("reconciles the node's coins with the ledger after deposits, a payout and a funding: fees explained, 0 unexplained", async () => {
    for (const litoshi of [100_000_000n, 100_000_000n, 50_000_000n]) await payKassa(litoshi);
    await watch();
    await customer.mine(CONFIRMATIONS);
    await watch();
    expect(await merchantBalance()).toBeGreaterThan(0n);

    // A payout in the node's mempool: its fee left the chain and is not booked yet.
    const to = await customer.rpc<string>("getnewaddress", ["", "bech32"]);
    const { id } = await createWithdrawal(
      database.db,
      withdrawalInput(
        merchantId,
        withdrawalRequest.parse({
          currency: "LTC",
          amount: "0.3",
          address: to,
          foreign_id: `wallet-payout-${++counter}`,
          end_user_reference: "payee",
          sender_type: "legal",
          sender_data: { legal_name: "Shop GmbH", country_of_registration: "DEU" },
          receiver_type: "self",
        }),
        pricing,
      ),
    );
    await runDueJobs(database.db, handlers);
    const [sent] = await queryRows<{ txid: string }>(
      database.db,
      sql`select txid from withdrawals where transaction_id = ${id}`,
    );
    const fee = await nodeFee(await transaction(sent!.txid));
    // And a deposit seen, not yet credited.
    await payKassa(20_000_000n);
    await watch();
    const inFlight = await reconcile();
    expect(inFlight.currencies.LTC).toMatchObject({
      unexplained: "0.00000000",
      is_reconciled: true,
      explained: {
        fees_not_booked: `-${coins(fee)}`,
        payments_not_credited: "0.20000000",
        payouts_in_flight: "0.00000000",
        dust: "0.00000000",
      },
    });
    expect(inFlight.payouts_read).toBe(1);

    await customer.mine(CONFIRMATIONS);
    await watch();
    expect(await trackUtxoPayouts(database.db, network)).toMatchObject({ confirmed: 1 });
    const settled = await reconcile();
    // Everything confirmed: the node's own scan of Kassa's addresses is the on-chain total.
    const onNode = await scannedOnNode();
    expect(settled.currencies.LTC).toEqual({
      on_chain: coins(onNode),
      ledger: coins(-(await platform("platform:chain"))),
      difference: "0.00000000",
      explained: {
        dust: "0.00000000",
        payments_not_credited: "0.00000000",
        payouts_in_flight: "0.00000000",
        fees_not_booked: "0.00000000",
      },
      unexplained: "0.00000000",
      is_reconciled: true,
    });
    // Deposits (2.7) and fundings (3.5) in, the payout's 0.3 and its fee out.
    expect(onNode).toBe(270_000_000n + 350_000_000n - 30_000_000n - fee);
    expect(settled).toMatchObject({ network: "litecoin", hot_wallet: hotWallet.address });
    expect(((await cli("chain.reconcile")) as Report).is_reconciled).toBe(true);
    await expectLedgerBalanced();
  });

  it("reports as unexplained a coin spent behind Kassa's back, and an entry posted by hand", async () => {
    const [coin] = await queryRows<{
      txid: string;
      vout: number;
      base_amount: string;
      address: string;
      derivation_path: string;
    }>(
      database.db,
      sql`select txid, vout, base_amount::text, address, derivation_path from utxo_coins
          where status = 'spendable' and chain_transaction_id is not null order by id limit 1`,
    );
    // Signed with the test's own derivation of the coin's key, sent straight to the node.
    const key = HDKey.fromMasterSeed(await loadHdSeed(database.db, database.box)).derive(
      coin!.derivation_path,
    );
    const amount = BigInt(coin!.base_amount);
    const spend = new Transaction();
    spend.addInput({
      txid: coin!.txid,
      index: coin!.vout,
      witnessUtxo: { amount, script: outputScriptOf("litecoin", coin!.address, "regtest")! },
    });
    spend.addOutputAddress(
      await customer.rpc<string>("getnewaddress", ["", "bech32"]),
      amount - 10_000n,
      bitcoinNetworkOf("litecoin", "regtest")!,
    );
    spend.signIdx(key.privateKey!, 0);
    spend.finalize();
    await customer.rpc("sendrawtransaction", [spend.hex]);

    const spentElsewhere = await reconcile();
    expect(spentElsewhere.currencies.LTC).toMatchObject({
      unexplained: `-${coins(amount)}`,
      is_reconciled: false,
    });
    expect(spentElsewhere.is_reconciled).toBe(false);

    await inTransaction(database.db, (tx) =>
      postJournal(tx, {
        merchantId: null,
        kind: "manual",
        memo: "posted by hand",
        entries: [
          { account: platformAccount("platform:chain", "LTC"), amount: -1_000_000n },
          { account: platformAccount("platform:owner", "LTC"), amount: 1_000_000n },
        ],
      }),
    );
    const report = (await cli("chain.reconcile")) as Report;
    expect(report.ltc.currencies.LTC!.unexplained).toBe(`-${coins(amount + 1_000_000n)}`);
    expect(report.is_reconciled).toBe(false);
  });
});
