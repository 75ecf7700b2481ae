import "server-only";

import { and, count, eq, sql } from "drizzle-orm";
import { retryRpcCall } from "@/lib/chain/retry-rpc-call";
import { type Clock, systemClock } from "@/lib/clock";
import { type Db, queryRows } from "@/lib/db/client";
import { chainCursors, depositAddresses } from "@/lib/db/schema";
import type { Pricing } from "@/lib/rates/pricing";
import { confirmEvmDeposits } from "./confirm-evm-deposits";
import type { EvmNetwork } from "./evm-network";
import { type FetchedBlock, type FetchedPayment, fetchRange, RangeChangedError } from "./fetch-range";
import { type Cursor, storeRange } from "./store-range";
import { unwindReorg } from "./unwind-reorg";

/** The watcher's memory between passes: how many blocks it reads at once (adaptive). */
export type WatcherState = { range: bigint };

export const MAX_RANGE = 500n;

export type WatchResult = {
  tip: bigint;
  cursor: bigint;
  blocks: number;
  payments: number;
  reorgs: number;
  credited: number;
};

export type WatchOptions = {
  network: EvmNetwork;
  pricing: Pricing;
  state?: WatcherState;
  /** Tries per RPC step before the pass fails (and the next pass starts again from the cursor). */
  attempts?: number;
  baseDelayMs?: number;
  /** Called after each range is stored (tests use it to stop a watcher mid-way). */
  onStored?: (cursor: bigint) => void | Promise<void>;
  /** Where "now" is read (tests move it past deadlines); the system clock otherwise. */
  clock?: Clock;
};

async function loadCursor(db: Db, network: string): Promise<Cursor | null> {
  // Raw: the bigint block number read as text, so it stays exact.
  const [row] = await queryRows<{ block_number: string; block_hash: string }>(
    db,
    sql`select block_number::text, block_hash from chain_cursors where network = ${network}`,
  );
  return row ? { blockNumber: BigInt(row.block_number), blockHash: row.block_hash } : null;
}

/** How many deposit addresses the network has: addresses are never deleted, so a change means one was handed out. */
async function countWatched(db: Db, network: string): Promise<number> {
  const [row] = await db
    .select({ count: count() })
    .from(depositAddresses)
    .where(eq(depositAddresses.network, network));
  return Number(row?.count ?? 0);
}

type Watched = { addresses: Map<string, string>; count: number };

/** Lower-case address → the address as handed out, for every deposit address on the network. */
async function loadWatched(db: Db, network: string): Promise<Watched> {
  // Counted first: an address handed out between the two reads makes the next check reload.
  const counted = await countWatched(db, network);
  const rows = await db
    .selectDistinct({ address: depositAddresses.address })
    .from(depositAddresses)
    .where(eq(depositAddresses.network, network));
  return { addresses: new Map(rows.map((r) => [r.address.toLowerCase(), r.address])), count: counted };
}

/** Whether the cursor's block is still on the node's chain. */
async function isOnChain(network: EvmNetwork, cursor: Cursor, tip: bigint): Promise<boolean> {
  if (cursor.blockNumber > tip) return false;
  const block = await network.client.getBlock({ blockNumber: cursor.blockNumber });
  return block.hash === cursor.blockHash;
}

/**
 * One pass of the EVM watcher (DESIGN.md section 5): ranges from the durable cursor to the tip, each
 * checked to continue the cursor and stored with it in one transaction (a reorganisation unwound
 * first), then confirmed deposits credited. docs/decisions/chain-watcher-passes.md.
 */
export async function watchEvmChain(db: Db, options: WatchOptions): Promise<WatchResult> {
  const { network } = options;
  const state = options.state ?? { range: 1n };
  const retry = { attempts: options.attempts ?? 5, baseDelayMs: options.baseDelayMs ?? 200 };
  const result: WatchResult = { tip: 0n, cursor: 0n, blocks: 0, payments: 0, reorgs: 0, credited: 0 };
  // Every block mined before this moment is at or below the tip read next: a pass that reaches that
  // tip has read the network up to this moment (invoice expiry waits on it: seen_until).
  const passStart = (options.clock ?? systemClock).now();
  const tip = await retryRpcCall(() => network.client.getBlockNumber({ cacheTime: 0 }), retry);
  result.tip = tip;
  let watched = await loadWatched(db, network.network);
  let cursor = await loadCursor(db, network.network);
  let failures = 0;
  while (true) {
    if (cursor && !(await retryRpcCall(() => isOnChain(network, cursor!, tip), retry))) {
      await unwindReorg(db, network, cursor);
      result.reorgs++;
      cursor = await loadCursor(db, network.network);
      continue;
    }
    if (cursor && cursor.blockNumber >= tip) break;
    const from = cursor ? cursor.blockNumber + 1n : tip;
    const to = from + state.range - 1n < tip ? from + state.range - 1n : tip;
    let fetched: { blocks: FetchedBlock[]; payments: FetchedPayment[] };
    try {
      fetched = await fetchRange(network, { from, to, watched: watched.addresses });
    } catch (error) {
      // A node refusing a wide range (too many logs, a timeout) gets a narrower one at once.
      if (!(error instanceof RangeChangedError) && state.range > 1n) {
        state.range /= 2n;
        continue;
      }
      // Otherwise (the chain moved under the read, or a one-block range failed) wait and read again.
      if (++failures >= retry.attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, retry.baseDelayMs * 2 ** (failures - 1)));
      continue;
    }
    if (cursor && fetched.blocks[0]!.parentHash !== cursor.blockHash) {
      // The chain changed between reading the cursor's block and this range: isOnChain decides next.
      if (++failures >= retry.attempts) throw new Error(`block ${from} keeps not following the cursor`);
      continue;
    }
    if ((await countWatched(db, network.network)) !== watched.count) {
      watched = await loadWatched(db, network.network);
      continue;
    }
    failures = 0;
    const isStored = await storeRange(db, {
      network: network.network,
      cursor,
      ...fetched,
      watched: watched.addresses,
      clock: options.clock,
    });
    cursor = await loadCursor(db, network.network);
    if (!isStored) continue; // another worker stored this range
    result.blocks += fetched.blocks.length;
    result.payments += fetched.payments.length;
    if (state.range < MAX_RANGE) state.range *= 2n;
    await options.onStored?.(cursor!.blockNumber);
  }
  result.cursor = cursor?.blockNumber ?? 0n;
  if (cursor)
    await db
      .update(chainCursors)
      .set({ seenUntil: sql`greatest(${chainCursors.seenUntil}, ${passStart.toISOString()}::timestamptz)` })
      .where(
        and(eq(chainCursors.network, network.network), eq(chainCursors.blockNumber, cursor.blockNumber)),
      );
  result.credited = await confirmEvmDeposits(db, { network, pricing: options.pricing });
  return result;
}
