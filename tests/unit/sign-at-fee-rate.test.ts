import { secp256k1 } from "@noble/curves/secp256k1.js";
import { hex } from "@scure/base";
import { p2wpkh, TEST_NETWORK, Transaction } from "@scure/btc-signer";
import { describe, expect, it } from "vitest";
import { signAtFeeRate } from "@/lib/chain/utxo/payout/sign-at-fee-rate";

const COIN = 5_000_000n;

/** Bytes of a Bitcoin CompactSize length prefix. */
const compactSizeBytes = (n: number) => (n < 0xfd ? 1 : n <= 0xffff ? 3 : 5);

/**
 * The virtual size of a signed segwit transaction, counted from its raw bytes and its witness stacks
 * (BIP 141: weight = 3 × size without witness + total size; vsize = weight / 4, rounded up).
 */
function virtualSizeOf(raw: Uint8Array, witnesses: Uint8Array[][]): number {
  const witnessBytes = witnesses.reduce(
    (sum, stack) =>
      sum +
      compactSizeBytes(stack.length) +
      stack.reduce((s, item) => s + compactSizeBytes(item.length) + item.length, 0),
    0,
  );
  const stripped = raw.length - 2 - witnessBytes; // less the marker and flag bytes, and the witnesses
  return Math.ceil((3 * stripped + raw.length) / 4);
}

/** A merge of `inputs` P2WPKH coins of COIN each into one output, under fresh keys: what consolidation signs. */
function mergeOf(inputs: number) {
  const keys = Array.from({ length: inputs }, () => secp256k1.utils.randomSecretKey());
  const target = p2wpkh(secp256k1.getPublicKey(secp256k1.utils.randomSecretKey(), true), TEST_NETWORK);
  const txid = hex.encode(secp256k1.utils.randomSecretKey());
  return (fee: bigint) => {
    const tx = new Transaction();
    for (const [index, key] of keys.entries())
      tx.addInput({
        txid,
        index,
        sequence: 0xfffffffd,
        witnessUtxo: { amount: COIN, script: p2wpkh(secp256k1.getPublicKey(key, true), TEST_NETWORK).script },
      });
    tx.addOutput({ script: target.script, amount: COIN * BigInt(inputs) - fee });
    for (const [index, key] of keys.entries()) tx.signIdx(key, index);
    tx.finalize();
    return tx;
  };
}

describe("signing at a fee rate: the fee covers the signed size, whatever the signatures' lengths", () => {
  // Sixteen inputs: their signatures' lengths vary by a byte each, so sizes differ between signings by
  // a few virtual bytes. Stopping once "the fee equals the last size" (or after five signings)
  // underpaid 18 merges in 100 of this size, measured; 30 merges at four rates catch that.
  it("pays at least the rate times the signed virtual size, over 30 merges of 16 coins", () => {
    const inputs = 16;
    const rates = [1n, 7n, 20n, 101n];
    for (let round = 0; round < 30; round++) {
      const rate = rates[round % rates.length]!;
      const signed = signAtFeeRate(mergeOf(inputs), rate, 11 + 68 * inputs + 31);
      const raw = signed.extract();
      const witnesses = Array.from({ length: inputs }, (_, i) => signed.getInput(i).finalScriptWitness!);
      const vsize = virtualSizeOf(raw, witnesses);
      expect(vsize).toBe(signed.vsize);
      const fee = COIN * BigInt(inputs) - signed.getOutput(0).amount!;
      expect(fee).toBeGreaterThanOrEqual(rate * BigInt(vsize));
      // At most what every signature's extra byte would add (a quarter of a virtual byte each).
      expect(fee).toBeLessThanOrEqual(rate * BigInt(vsize + Math.ceil(inputs / 4)));
    }
  });
});
