import type { Offering } from "@/lib/currencies/offering";
import { type LitecoindNode, litecoinRpc, startLitecoind } from "@/scripts/litecoind.mjs";

export type { LitecoindNode };

/** Litoshi as the decimal text the node's RPC takes ("1.50000000"): amounts never go through a float. */
export function coins(litoshi: bigint): string {
  return `${litoshi / 100_000_000n}.${(litoshi % 100_000_000n).toString().padStart(8, "0")}`;
}

/** The node's decimal amount (a JSON number as the node wrote it) as litoshi, parsed here independently of Kassa. */
export function litoshiOf(value: number | string): bigint {
  const [whole, fraction = ""] = String(value).split(".");
  return BigInt(whole!) * 100_000_000n + BigInt(fraction.padEnd(8, "0"));
}

/**
 * The customer's side of a test: a litecoind in regtest for one test file, with the node's own
 * wallet funded by 101 blocks (coinbase outputs mature after 100). The customer pays from that
 * wallet; Kassa never touches it.
 */
export async function startTestLitecoind(options: { port?: number; dir?: string } = {}) {
  const node = await startLitecoind(options);
  const rpc = <T>(method: string, params: unknown[] = []) => litecoinRpc<T>(node, method, params);
  const own = await rpc<string>("getnewaddress", ["", "bech32"]);
  const customer = {
    node,
    url: node.url,
    rpc,
    /**
     * Mines `count` blocks to a new address of the customer's; resolves with their hashes. A new
     * address each time: after invalidateblock, a block mined in the same second to the same address
     * with the same transactions would be the invalidated block again, which the node refuses.
     */
    mine: async (count = 1) =>
      rpc<string[]>("generatetoaddress", [count, await rpc<string>("getnewaddress", ["", "bech32"])]),
    /** The customer pays `litoshi` to `address` (replaceable, so a test can bump or double-spend it). */
    pay: (address: string, litoshi: bigint) =>
      rpc<string>("sendtoaddress", [address, coins(litoshi), "", "", false, true]),
    /** One transaction paying several addresses. */
    payMany: (outputs: Record<string, bigint>) =>
      rpc<string>("sendmany", [
        "",
        Object.fromEntries(Object.entries(outputs).map(([address, litoshi]) => [address, coins(litoshi)])),
        1,
        "",
        [],
        true,
      ]),
    /** The transaction as the node reports it (verbose). */
    transaction: (txid: string) =>
      rpc<{
        txid: string;
        vout: { value: number; n: number; scriptPubKey: { addresses?: string[] } }[];
        confirmations?: number;
      }>("getrawtransaction", [txid, true]),
    stop: () => node.stop(),
  };
  await rpc("generatetoaddress", [101, own]);
  return customer;
}

export type TestLitecoind = Awaited<ReturnType<typeof startTestLitecoind>>;

/**
 * Replaces the customer's unconfirmed `txid` (it signals replace-by-fee) with one spending the same
 * inputs back to the customer, with a higher fee: the original payment can never confirm.
 */
export async function doubleSpend(customer: TestLitecoind, txid: string): Promise<string> {
  const original = await customer.transaction(txid);
  const inputs = (original as unknown as { vin: { txid: string; vout: number }[] }).vin.map((i) => ({
    txid: i.txid,
    vout: i.vout,
  }));
  const total = original.vout.reduce((sum, output) => sum + litoshiOf(output.value), 0n);
  const back = await customer.rpc<string>("getnewaddress", ["", "bech32"]);
  const raw = await customer.rpc<string>("createrawtransaction", [
    inputs,
    { [back]: coins(total - 100_000n) },
    0,
    true,
  ]);
  const signed = await customer.rpc<{ hex: string; complete: boolean }>("signrawtransactionwithwallet", [
    raw,
  ]);
  if (!signed.complete) throw new Error("the customer's wallet could not sign the double spend");
  return customer.rpc<string>("sendrawtransaction", [signed.hex]);
}

/** A node's start and a fresh database take seconds; on a machine shared with other test runs, over a minute. */
export const NODE_START_MS = 180_000;

/** A sandbox installation with no real network yet: the LTC tests open Litecoin on it once their node answers. */
export const SANDBOX_OFFERING: Offering = {
  mode: "sandbox",
  realNetworks: {},
  realCurrencies: [],
  contracts: {},
  chainIds: {},
  decimals: {},
  confirmations: {},
};
