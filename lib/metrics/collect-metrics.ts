import "server-only";

import { sql } from "drizzle-orm";
import { Counter, Gauge, Registry } from "prom-client";
import type { AccountKeys } from "@/lib/chain/account-keys";
import { type EvmNetworkOnce, evmNetworkOnce } from "@/lib/chain/evm/evm-network";
import { hotWalletAddress } from "@/lib/chain/evm/payout/hot-wallet";
import { readHotWallet } from "@/lib/chain/evm/payout/read-hot-wallet";
import type { EvmConfig } from "@/lib/config";
import { type Db, queryRows } from "@/lib/db/client";
import { databaseQueryCount } from "@/lib/db/query-count";
import { ALL_QUEUES } from "@/lib/jobs/queues";
import { openCheckoutStreams } from "@/lib/notify/checkout-hub-slot";
import { processMetrics } from "./process-metrics";

/** Connected once per process (chain id and token decimals), again after a failed connection. */
let evmNetwork: EvmNetworkOnce | undefined;

/**
 * One scrape of /metrics: a fresh registry filled from the database and the EVM node at the time
 * of the scrape, so every process (servers, workers) reports the same shared state and nothing
 * is held between scrapes. A node that does not answer is reported as down (kassa_evm_node_up 0),
 * never as a failed scrape: an operator must still see the queues when the node is the problem.
 * Balances are exposition values (Prometheus samples are floats); the ledger stays in 10^-8 units.
 */
export async function collectMetrics(input: {
  db: Db;
  evm: EvmConfig | undefined;
  keys: AccountKeys;
}): Promise<Registry> {
  const registry = new Registry();
  const gauge = (name: string, help: string, labelNames: string[] = []) =>
    new Gauge({ name, help, labelNames, registers: [registry] });

  const depth = gauge("kassa_job_queue_depth", "Jobs queued (due or scheduled), per queue.", ["queue"]);
  const due = gauge("kassa_job_queue_due", "Queued jobs whose run time has come, per queue.", ["queue"]);
  const queues = await queryRows<{ queue: string; queued: number; due: number }>(
    input.db,
    sql`select queue, count(*)::int as queued, count(*) filter (where run_at <= now())::int as due
       from jobs where status = 'queued' group by queue`,
  );
  for (const queue of ALL_QUEUES) {
    depth.set({ queue }, 0);
    due.set({ queue }, 0);
  }
  for (const row of queues) {
    depth.set({ queue: row.queue }, row.queued);
    due.set({ queue: row.queue }, row.due);
  }

  const [callbacks] = await queryRows<{ failed: number; queued: number }>(
    input.db,
    sql`select count(*) filter (where status = 'failed')::int as failed,
            count(*) filter (where status = 'queued' and attempts > 0)::int as queued
       from callbacks where status <> 'delivered'`,
  );
  gauge("kassa_callbacks_failed", "Callbacks that gave up after every retry.").set(callbacks?.failed ?? 0);
  gauge("kassa_callbacks_retrying", "Callbacks whose last attempt failed and that will be retried.").set(
    callbacks?.queued ?? 0,
  );

  const cursor = gauge("kassa_chain_watcher_block", "The last block the chain watcher processed.", [
    "network",
  ]);
  const seen = gauge(
    "kassa_chain_watcher_seen_until_seconds",
    "How far in time the watcher has read the network (Unix seconds).",
    ["network"],
  );
  const cursors = await queryRows<{
    network: string;
    block_number: string;
    seen_until: Date | string | null;
  }>(input.db, sql`select network, block_number::text as block_number, seen_until from chain_cursors`);
  for (const row of cursors) {
    cursor.set({ network: row.network }, Number(row.block_number));
    if (row.seen_until) seen.set({ network: row.network }, new Date(row.seen_until).getTime() / 1000);
  }

  // This process's own figures (each server and worker reports its own).
  new Counter({
    name: "kassa_db_queries_total",
    help: "Statements this process sent to the database since it started.",
    registers: [registry],
  }).inc(databaseQueryCount());
  gauge("kassa_checkout_streams_open", "Checkout event streams open on this process.").set(
    openCheckoutStreams(),
  );

  if (input.evm) await collectEvmMetrics(registry, input.evm, input.keys, cursors);
  // The process's memory, heap, GC and event-loop lag (prom-client's defaults).
  return Registry.merge([registry, processMetrics()]);
}

/** The EVM node's figures: up, tip, the watcher's lag, the hot wallet's balances. */
async function collectEvmMetrics(
  registry: Registry,
  config: EvmConfig,
  keys: AccountKeys,
  cursors: { network: string; block_number: string }[],
): Promise<void> {
  const gauge = (name: string, help: string, labelNames: string[] = []) =>
    new Gauge({ name, help, labelNames, registers: [registry] });
  const up = gauge("kassa_evm_node_up", "1 when the EVM node answered this scrape.");
  try {
    evmNetwork ??= evmNetworkOnce(config);
    const evm = await evmNetwork.get();
    const tip = await evm.client.getBlockNumber();
    const watched = cursors.find((c) => c.network === evm.network);
    gauge("kassa_chain_tip_block", "The node's latest block.", ["network"]).set(
      { network: evm.network },
      Number(tip),
    );
    gauge("kassa_chain_tip_lag_blocks", "Blocks the watcher is behind the node's tip.", ["network"]).set(
      { network: evm.network },
      watched ? Number(tip - BigInt(watched.block_number)) : Number(tip),
    );
    const wallet = await readHotWallet({ network: evm, address: hotWalletAddress(keys) });
    const balance = gauge("kassa_hot_wallet_balance", "What the hot wallet holds on chain, per currency.", [
      "network",
      "currency",
      "address",
    ]);
    for (const [currency, amount] of Object.entries(wallet.balances))
      balance.set({ network: evm.network, currency, address: wallet.address }, Number(amount));
    up.set(1);
  } catch {
    up.set(0);
  }
}
