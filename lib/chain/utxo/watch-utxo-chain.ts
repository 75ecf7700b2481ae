import "server-only";

import { and, eq, sql } from "drizzle-orm";
import { confirmEvmDeposits } from "@/lib/chain/evm/confirm-evm-deposits";
import type { Cursor } from "@/lib/chain/evm/store-range";
import { retryRpcCall } from "@/lib/chain/retry-rpc-call";
import { type Clock, systemClock } from "@/lib/clock";
import { type Db, queryRows } from "@/lib/db/client";
import { addressCounters, chainCursors, depositAddresses } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import type { Pricing } from "@/lib/rates/pricing";
import { creditHotWalletFunding } from "./hot-wallet/credit-hot-wallet-funding";
import type { UtxoHotWallet } from "./hot-wallet/utxo-hot-wallet";
import { readMempoolTransaction, readUtxoBlock } from "./read-utxo-block";
import { storeUtxoBlock } from "./store-utxo-block";
import { storeUtxoPayments } from "./store-utxo-payments";
import { isCursorOnChain, removeUtxoPayment, unwindUtxoReorg } from "./unwind-utxo-reorg";
import type { UtxoNetwork } from "./utxo-network";

/** The watcher's memory between passes: the mempool transactions it has already looked into. */
export type UtxoWatcherState = {
  examined: Set<string>;
  /** How many addresses were watched when they were looked into: a new address means looking again. */
  watchedCount?: number;
  /** The watched addresses as last loaded, reused while the network's derivation counter stays put. */
  watched?: Watched;
};

export type UtxoWatchResult = {
  tip: number;
  cursor: number;
  blocks: number;
  /** Payments new (or back) this pass, from blocks and from the mempool. */
  payments: number;
  reorgs: number;
  /** Unconfirmed payments a double spend (or the mempool dropping them) took away. */
  dropped: number;
  credited: number;
  /** The operator's fundings of the hot wallet credited this pass. */
  funded: number;
  /** RPC calls this pass made (the bench reports calls per block). */
  calls: number;
};

export type UtxoWatchOptions = {
  network: UtxoNetwork;
  pricing: Pricing;
  /** The hot wallet (hot-wallet/utxo-hot-wallet.ts): payments to it are the operator's funding, not deposits. */
  hotWallet?: UtxoHotWallet;
  state?: UtxoWatcherState;
  /** Tries per RPC step before the pass fails (the next pass starts again from the cursor). */
  attempts?: number;
  baseDelayMs?: number;
  /** Called after each block is stored (tests use it to stop a watcher mid-way). */
  onStored?: (height: number) => void | Promise<void>;
  clock?: Clock;
};

async function loadCursor(db: Db, network: string): Promise<Cursor | null> {
  // Raw: the bigint height read as text, so it stays exact.
  const [row] = await queryRows<{ block_number: string; block_hash: string }>(
    db,
    sql`select block_number::text, block_hash from chain_cursors where network = ${network}`,
  );
  return row ? { blockNumber: BigInt(row.block_number), blockHash: row.block_hash } : null;
}

type Watched = { addresses: Map<string, string>; count: number };

/**
 * Which addresses the network has handed out, as one number read from one row: the network's
 * derivation counter (lib/chain/allocate-deposit-address.ts), which every new deposit address
 * increments in the transaction that inserts it. Equal before and after a read of the addresses
 * means none was committed meanwhile; counting 100,000 rows for every block read would cost more
 * than the block.
 */
async function countWatched(db: Db, network: string): Promise<number> {
  const [row] = await db
    .select({ next: addressCounters.nextIndex })
    .from(addressCounters)
    .where(eq(addressCounters.key, `path:${network}`));
  return Number(row?.next ?? 0);
}

/** Lower-case address → the address as handed out, for every deposit address on the network and the hot wallet. */
async function loadWatched(db: Db, network: string, hotWallet: UtxoHotWallet | undefined): Promise<Watched> {
  // The counter first: an address handed out between the two reads makes the next check reload.
  const counted = await countWatched(db, network);
  const rows = await db
    .selectDistinct({ address: depositAddresses.address })
    .from(depositAddresses)
    .where(eq(depositAddresses.network, network));
  const addresses = new Map(rows.map((r) => [r.address.toLowerCase(), r.address]));
  if (hotWallet) addresses.set(hotWallet.address.toLowerCase(), hotWallet.address);
  return { addresses, count: counted };
}

/** The network's payments not in any block (seen in the mempool only), as they stand now. */
async function loadUnmined(db: Db, network: string): Promise<{ id: number; txid: string }[]> {
  const rows = await queryRows<{ id: string | number; txid: string }>(
    db,
    sql`select id, txid from chain_transactions
        where network = ${network} and block_height is null and removed_at is null and direction = 'in'`,
  );
  return rows.map((r) => ({ id: Number(r.id), txid: r.txid }));
}

/**
 * One pass of the UTXO watcher (DESIGN.md section 5): mempool payments listed, mempool read, blocks
 * stored with the cursor up to the tip, new mempool outputs recorded, payments that left the node
 * marked, confirmations counted. Why this order: docs/decisions/chain-watcher-passes.md.
 */
export async function watchUtxoChain(db: Db, options: UtxoWatchOptions): Promise<UtxoWatchResult> {
  const { network } = options;
  const state = options.state ?? { examined: new Set<string>() };
  const retry = { attempts: options.attempts ?? 5, baseDelayMs: options.baseDelayMs ?? 200 };
  let calls = 0;
  const rpc = {
    ...network.rpc,
    call: <T>(method: string, params?: unknown[]) => {
      calls++;
      return network.rpc.call<T>(method, params);
    },
  };
  const counted: UtxoNetwork = { ...network, rpc };
  const result: UtxoWatchResult = {
    tip: 0,
    cursor: 0,
    blocks: 0,
    payments: 0,
    reorgs: 0,
    dropped: 0,
    credited: 0,
    funded: 0,
    calls: 0,
  };
  const passStart = (options.clock ?? systemClock).now();

  const unmined = await loadUnmined(db, network.network);
  const mempool = new Set(await retryRpcCall(() => rpc.call<string[]>("getrawmempool"), retry));
  const tip = await retryRpcCall(() => rpc.call<number>("getblockcount"), retry);
  result.tip = tip;
  // Reloaded only when an address was handed out since the last pass (100,000 rows cost seconds).
  let watched =
    state.watched && state.watched.count === (await countWatched(db, network.network))
      ? state.watched
      : await loadWatched(db, network.network, options.hotWallet);
  let cursor = await loadCursor(db, network.network);
  let failures = 0;
  let nextHash: string | undefined;
  const unwind = async (from: Cursor) => {
    await unwindUtxoReorg(db, counted, from);
    result.reorgs++;
    cursor = await loadCursor(db, network.network);
  };
  while (true) {
    if (cursor && cursor.blockNumber >= BigInt(tip)) {
      // At the tip: the cursor's block must still be the node's (a reorganisation to a chain no longer).
      if (await retryRpcCall(() => isCursorOnChain(counted, cursor!), retry)) break;
      await unwind(cursor);
      continue;
    }
    const height = cursor ? Number(cursor.blockNumber) + 1 : tip;
    const block = await retryRpcCall(() => readUtxoBlock(rpc, height, watched.addresses, nextHash), retry);
    nextHash = undefined;
    // A block that follows the cursor proves the cursor is on the node's chain: no extra call per block.
    if (cursor && block.previousHash !== cursor.blockHash) {
      if (!(await retryRpcCall(() => isCursorOnChain(counted, cursor!), retry))) {
        await unwind(cursor);
        continue;
      }
      // The chain changed between the two reads: read again.
      if (++failures >= retry.attempts) throw new Error(`block ${height} keeps not following the cursor`);
      continue;
    }
    if ((await countWatched(db, network.network)) !== watched.count) {
      watched = await loadWatched(db, network.network, options.hotWallet);
      continue;
    }
    failures = 0;
    const isStored = await storeUtxoBlock(db, {
      network: network.network,
      currency: network.currency,
      cursor,
      block,
      hotWallet: options.hotWallet,
      clock: options.clock,
    });
    if (!isStored) {
      cursor = await loadCursor(db, network.network); // another worker stored this block
      continue;
    }
    cursor = { blockNumber: BigInt(block.height), blockHash: block.hash };
    nextHash = block.nextHash;
    result.blocks++;
    result.payments += block.payments.length;
    await options.onStored?.(block.height);
  }
  result.cursor = Number(cursor?.blockNumber ?? 0n);

  // The mempool: each transaction looked into once per process (the set forgets what left it), and
  // all of it again when an address was handed out since.
  if (state.watchedCount !== watched.count) state.examined.clear();
  state.watchedCount = watched.count;
  state.watched = watched;
  for (const txid of state.examined) if (!mempool.has(txid)) state.examined.delete(txid);
  for (const txid of mempool) {
    if (state.examined.has(txid)) continue;
    const payments = await readMempoolTransaction(rpc, txid, watched.addresses);
    if (payments === null) continue; // left the mempool meanwhile: mined (next pass) or gone (step 4 next pass)
    if (payments.length > 0)
      result.payments += await inTransaction(db, (tx) =>
        storeUtxoPayments(tx, {
          network: network.network,
          currency: network.currency,
          payments,
          block: null,
          hotWallet: options.hotWallet,
          clock: options.clock,
        }),
      );
    state.examined.add(txid);
  }

  const stillUnmined = new Set((await loadUnmined(db, network.network)).map((p) => p.id));
  for (const payment of unmined) {
    if (!stillUnmined.has(payment.id) || mempool.has(payment.txid)) continue;
    const outcome = await inTransaction(db, (tx) => removeUtxoPayment(tx, network.network, payment.id));
    if (outcome !== "none") result.dropped++;
  }

  if (cursor)
    await db
      .update(chainCursors)
      .set({ seenUntil: sql`greatest(${chainCursors.seenUntil}, ${passStart.toISOString()}::timestamptz)` })
      .where(
        and(eq(chainCursors.network, network.network), eq(chainCursors.blockNumber, cursor.blockNumber)),
      );
  result.credited = await confirmEvmDeposits(db, { network, pricing: options.pricing });
  if (options.hotWallet) result.funded = await creditHotWalletFunding(db, { network });
  result.calls = calls;
  return result;
}
