// A watcher in its own process, for tests that SIGKILL it: runs one pass over the database named by
// KASSA_CHILD_DB (a TestDatabaseLocation as JSON) and the node KASSA_CHILD_RPC_URL, one block per
// range, printing "stored <block>" after each range it stored.
import { connectEvmNetwork } from "@/lib/chain/evm/evm-network";
import { watchEvmChain } from "@/lib/chain/evm/watch-evm-chain";
import { openDatabase } from "@/lib/db/client";
import { pricing } from "../support/invoices";
import type { TestDatabaseLocation } from "./database";

const location = JSON.parse(process.env.KASSA_CHILD_DB!) as TestDatabaseLocation;
const handle = await openDatabase(
  location.kind === "pg"
    ? { kind: "pg", url: location.url, poolSize: 2 }
    : { kind: "pglite", dataDir: location.dataDir },
);
const network = await connectEvmNetwork({
  rpcUrl: process.env.KASSA_CHILD_RPC_URL!,
  tokens: JSON.parse(process.env.KASSA_CHILD_TOKENS!),
  confirmations: Number(process.env.KASSA_CHILD_CONFIRMATIONS),
});
await watchEvmChain(handle.db, {
  network,
  pricing,
  state: { range: 1n },
  // Stays at one block per range: the parent kills it between and inside ranges.
  onStored: (block) => {
    process.stdout.write(`stored ${block}\n`);
  },
});
process.stdout.write("done\n");
await handle.close();
