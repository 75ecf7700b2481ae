import "server-only";

import { hex } from "@scure/base";
import { selectUTXO } from "@scure/btc-signer";
import { eq, inArray, sql } from "drizzle-orm";
import { bitcoinNetworkOf, outputScriptOf } from "@/lib/chain/address-codec";
import { getCurrency } from "@/lib/currencies/registry";
import { type Db, queryRows, type Tx } from "@/lib/db/client";
import { utxoPayoutOutputs, utxoPayouts } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import type { UtxoNetwork } from "../utxo-network";
import { nextPayoutId, type StoredUtxoPayout, storeUtxoTransaction } from "./store-utxo-transaction";
import { changeAddressOf, privateKeysOf } from "./utxo-keys";

export type { StoredUtxoPayout };

/** One destination of a payout: a withdrawal's reference, address and exact amount in base units. */
export type PayoutOutput = { reference: string; address: string; baseAmount: bigint };

export type SignedPayout = { kind: "stored"; payout: StoredUtxoPayout } | { kind: "short"; reason: string };

/** Opts in to replace-by-fee (BIP 125): a stuck payout can be replaced with a higher fee. */
const RBF_SEQUENCE = 0xfffffffd;

type SpendableCoin = {
  id: number;
  txid: string;
  vout: number;
  base_amount: string;
  address: string;
  derivation_path: string;
};

/** The payout already stored for any of these references, if one is. */
export async function findStoredPayout(
  db: Db | Tx,
  references: readonly string[],
): Promise<StoredUtxoPayout | undefined> {
  const [row] = await db
    .select({ payout: utxoPayouts })
    .from(utxoPayoutOutputs)
    .innerJoin(utxoPayouts, eq(utxoPayouts.id, utxoPayoutOutputs.payoutId))
    .where(inArray(utxoPayoutOutputs.reference, [...references]));
  return row?.payout;
}

/** The candidate inputs of a selection, in the form the library takes, with the coins they are. */
function candidates(network: UtxoNetwork, coins: SpendableCoin[]) {
  const format = getCurrency(network.currency).addressFormat!;
  return coins.map((coin) => ({
    txid: hex.decode(coin.txid),
    index: coin.vout,
    witnessUtxo: {
      amount: BigInt(coin.base_amount),
      script: outputScriptOf(format, coin.address, network.net)!,
    },
    sequence: RBF_SEQUENCE,
  }));
}

/**
 * Chooses coins for `outputs` at `feeRate` (base units per virtual byte) with @scure/btc-signer's
 * selection, change to `changeAddress` (left out when it would be dust, its value going to the fee).
 * Undefined when the coins do not cover the outputs and the fee.
 */
export function selectCoins(
  network: UtxoNetwork,
  coins: SpendableCoin[],
  outputs: readonly { script: Uint8Array; amount: bigint }[],
  feeRate: bigint,
  changeAddress: string,
) {
  if (coins.length === 0) return undefined;
  return selectUTXO(candidates(network, coins), [...outputs], "default", {
    feePerByte: feeRate,
    changeAddress,
    network: bitcoinNetworkOf(getCurrency(network.currency).addressFormat!, network.net)!,
    createTx: true,
    bip69: false,
  });
}

/** The coin a selected input spends. */
function coinAt(
  coins: SpendableCoin[],
  input: { txid?: Uint8Array; index?: number },
): SpendableCoin | undefined {
  const txid = hex.encode(input.txid!);
  return coins.find((coin) => coin.txid === txid && coin.vout === input.index);
}

/** Kassa's confirmed coins of a network that no payout has taken; locked (and skipped when locked) with `lock`. */
export function spendableCoins(executor: Db | Tx, network: string, lock: boolean): Promise<SpendableCoin[]> {
  return queryRows<SpendableCoin>(
    executor,
    sql`select id, txid, vout, base_amount::text, address, derivation_path from utxo_coins
        where network = ${network} and status = 'spendable' order by id
        ${lock ? sql`for update skip locked` : sql``}`,
  );
}

/**
 * Signs one payout and stores it with everything it changes in one transaction; sends nothing. Coins are
 * locked (`for update skip locked`) and marked `spent` before release, so no coin is spent twice. The change
 * is Kassa's coin (`pending` until the payout confirms) at change-chain index = the payout's id. A
 * reference already stored returns its payout.
 */
export async function signUtxoPayout(
  db: Db,
  input: { network: UtxoNetwork; seed: Uint8Array; outputs: readonly PayoutOutput[]; feeRate: bigint },
): Promise<SignedPayout> {
  const { network } = input;
  const format = getCurrency(network.currency).addressFormat!;
  return inTransaction(db, async (tx) => {
    // References a racing signer stored first keep theirs; the rest are signed here.
    const alreadyStored = new Set(
      (
        await tx
          .select({ reference: utxoPayoutOutputs.reference })
          .from(utxoPayoutOutputs)
          .where(
            inArray(
              utxoPayoutOutputs.reference,
              input.outputs.map((o) => o.reference),
            ),
          )
      ).map((r) => r.reference),
    );
    const unsigned = input.outputs.filter((o) => !alreadyStored.has(o.reference));
    if (unsigned.length === 0)
      return { kind: "stored", payout: (await findStoredPayout(tx, [input.outputs[0]!.reference]))! };
    const id = await nextPayoutId(tx);
    const change = changeAddressOf(network, input.seed, id);
    const scripts = unsigned.map((o) => outputScriptOf(format, o.address, network.net)!);
    const wanted = unsigned.map((o, i) => ({ script: scripts[i]!, amount: o.baseAmount }));
    // Select from the coins as they are, then lock only those chosen: a coin another signer holds or
    // spent meanwhile is left out and the selection made again, so concurrent payouts each get coins
    // instead of one locking them all.
    const unavailable = new Set<number>();
    let coins: SpendableCoin[] = [];
    let selected: ReturnType<typeof selectCoins>;
    for (let attempt = 0; ; attempt++) {
      coins = (await spendableCoins(tx, network.network, false)).filter((c) => !unavailable.has(c.id));
      selected = selectCoins(network, coins, wanted, input.feeRate, change.address);
      if (!selected?.tx) break;
      const chosen = selected.inputs.map((i) => coinAt(coins, i)!.id);
      const locked = await queryRows<{ id: string | number }>(
        tx,
        sql`select id from utxo_coins where id in (${sql.join(chosen, sql`, `)}) and status = 'spendable'
            for update skip locked`,
      );
      if (locked.length === chosen.length) break;
      const held = new Set(locked.map((r) => Number(r.id)));
      for (const coinId of chosen) if (!held.has(coinId)) unavailable.add(coinId);
      if (attempt >= 8)
        throw new Error(`${network.currency} coins keep being taken by other signers; retried later`);
    }
    const transaction = selected?.tx;
    if (!selected || !transaction) {
      const held = coins.reduce((sum, coin) => sum + BigInt(coin.base_amount), 0n);
      const total = unsigned.reduce((sum, o) => sum + o.baseAmount, 0n);
      return {
        kind: "short",
        reason: `Kassa's spendable ${network.currency} coins (${held} base units) do not cover ${total} and the network fee`,
      };
    }
    const spent = selected.inputs.map((i) => coinAt(coins, i)!);
    const keys = privateKeysOf(
      input.seed,
      spent.map((coin) => coin.derivation_path),
    );
    for (const [index, key] of keys.entries()) transaction.signIdx(key, index);
    transaction.finalize();
    const changeScript = outputScriptOf(format, change.address, network.net)!;
    const outputs = Array.from({ length: transaction.outputsLength }, (_, n) => transaction.getOutput(n));
    // Each payout's own output, by script and amount: two payouts to one address get one output each.
    const taken = new Set<number>();
    const voutOf = (script: Uint8Array, amount?: bigint) => {
      const n = outputs.findIndex(
        (o, i) =>
          !taken.has(i) &&
          o.script !== undefined &&
          hex.encode(o.script) === hex.encode(script) &&
          (amount === undefined || o.amount === amount),
      );
      taken.add(n);
      return n;
    };
    const vouts = unsigned.map((o, i) => voutOf(scripts[i]!, o.baseAmount));
    const changeVout = selected.change ? voutOf(changeScript) : -1;
    const stored = await storeUtxoTransaction(tx, {
      id,
      network,
      transaction,
      feeRate: input.feeRate,
      spentCoinIds: spent.map((coin) => coin.id),
      change: changeVout >= 0 ? { vout: changeVout, address: change.address, path: change.path } : null,
    });
    await tx.insert(utxoPayoutOutputs).values(
      unsigned.map((o, i) => ({
        reference: o.reference,
        payoutId: id,
        vout: vouts[i]!,
        address: o.address,
        baseAmount: o.baseAmount,
      })),
    );
    return { kind: "stored", payout: stored };
  });
}
