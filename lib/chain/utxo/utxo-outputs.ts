import "server-only";

import { parseCoins } from "./utxo-rpc";

/** A transaction as `getblock` (verbosity 2) and `getrawtransaction` (verbose) give it; amounts as decimal text. */
export type NodeTransaction = {
  txid: string;
  vin: { txid?: string; vout?: number; coinbase?: string }[];
  vout: {
    value: string;
    n: number;
    /** `address` from Bitcoin Core 22 on; `addresses` before (0.21, Litecoin Core 0.21). */
    scriptPubKey: { address?: string; addresses?: string[]; type?: string };
  }[];
};

/** An output paying one of Kassa's addresses. */
export type FoundOutput = {
  txid: string;
  vout: number;
  /** As handed out (deposit_addresses.address). */
  address: string;
  baseUnits: bigint;
  /** The output the transaction's first input spends, for the sender's address (compliance screening). */
  firstInput: { txid: string; vout: number } | null;
};

/** The single address an output pays, or null (bare multisig, OP_RETURN, anything without one). */
export function outputAddress(output: NodeTransaction["vout"][number]): string | null {
  const { address, addresses } = output.scriptPubKey;
  if (address) return address;
  return addresses?.length === 1 ? addresses[0]! : null;
}

/**
 * The outputs of `transaction` that pay a watched address (lower case → as handed out), each exact
 * in base units. One transaction may pay several of them: each is a payment of its own.
 */
export function matchOutputs(
  transaction: NodeTransaction,
  watched: ReadonlyMap<string, string>,
): FoundOutput[] {
  const found: FoundOutput[] = [];
  const first = transaction.vin[0];
  for (const output of transaction.vout) {
    const address = outputAddress(output);
    const ours = address ? watched.get(address.toLowerCase()) : undefined;
    if (!ours) continue;
    const baseUnits = parseCoins(output.value);
    if (baseUnits === 0n) continue;
    found.push({
      txid: transaction.txid,
      vout: output.n,
      address: ours,
      baseUnits,
      firstInput:
        first?.txid !== undefined && first.vout !== undefined ? { txid: first.txid, vout: first.vout } : null,
    });
  }
  return found;
}
