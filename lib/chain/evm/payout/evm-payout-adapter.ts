import "server-only";

import { eq } from "drizzle-orm";
import type { PrivateKeyAccount } from "viem/accounts";
import { type ChainAdapter, HotWalletShortError } from "@/lib/chain/adapter";
import type { Db } from "@/lib/db/client";
import { evmPayouts } from "@/lib/db/schema";
import type { EvmNetwork } from "../evm-network";
import { payoutCall } from "./payout-call";
import { preparePayout } from "./prepare-payout";
import { sendStoredPayout } from "./send-stored-payout";
import { type StoredPayout, storeSignedPayout } from "./store-signed-payout";

export type EvmPayoutSources = {
  network: () => Promise<EvmNetwork>;
  /** The hot wallet's signing account; only the job runner opens the seed to make it. */
  wallet: (db: Db) => Promise<PrivateKeyAccount>;
  maxFeeGwei: number;
};

async function loadPayout(db: Db, reference: string): Promise<StoredPayout | undefined> {
  const [row] = await db.select().from(evmPayouts).where(eq(evmPayouts.reference, reference));
  return row;
}

/**
 * Payouts from the EVM hot wallet (DESIGN.md section 5). `broadcast` signs once per reference and
 * stores the signed bytes (with a nonce from the database) before sending them; every later call
 * for the reference, and `lookUpBroadcast` after a crash, sends those same bytes again, so a
 * payout goes out once whatever fails in between. A stored transaction counts as broadcast: its
 * nonce is taken and it is resent until mined (lib/chain/evm/payout/track-evm-payouts.ts).
 */
export function evmPayoutAdapter(sources: EvmPayoutSources): ChainAdapter {
  const resend = async (payout: StoredPayout) => sendStoredPayout((await sources.network()).client, payout);
  return {
    checkFunds: async (db, request) => {
      if (await loadPayout(db, request.reference)) return undefined;
      const network = await sources.network();
      const call = payoutCall(network, request);
      if ("refusal" in call) return undefined; // broadcast refuses it, and the funds go back
      const wallet = await sources.wallet(db);
      const prepared = await preparePayout({ network, wallet, call, ceilingGwei: sources.maxFeeGwei });
      return prepared.kind === "short" ? prepared.reason : undefined;
    },
    broadcast: async (db, request) => {
      let payout = await loadPayout(db, request.reference);
      if (!payout) {
        const network = await sources.network();
        const call = payoutCall(network, request);
        if ("refusal" in call) return { isAccepted: false, reason: call.refusal };
        const wallet = await sources.wallet(db);
        const prepared = await preparePayout({ network, wallet, call, ceilingGwei: sources.maxFeeGwei });
        if (prepared.kind === "refused") return { isAccepted: false, reason: prepared.reason };
        if (prepared.kind === "short") throw new HotWalletShortError(prepared.reason);
        const firstNonce = await network.client.getTransactionCount({
          address: wallet.address,
          blockTag: "pending",
        });
        payout = await storeSignedPayout(db, {
          reference: request.reference,
          network,
          wallet,
          call,
          fees: prepared.fees,
          gasLimit: prepared.gasLimit,
          firstNonce,
        });
      }
      await resend(payout);
      return { isAccepted: true, txid: payout.txHash, chainTransactionId: null };
    },
    lookUpBroadcast: async (db, request) => {
      const payout = await loadPayout(db, request.reference);
      if (!payout) return { isBroadcast: false };
      // Best effort: the payout tracker keeps resending it until it is mined.
      await resend(payout).catch((error: Error) =>
        console.warn(`[chain] resending ${request.reference} failed: ${error.message.split("\n")[0]}`),
      );
      return { isBroadcast: true, txid: payout.txHash, chainTransactionId: null };
    },
  };
}
