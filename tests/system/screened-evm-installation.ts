import { writeFileSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { takeAddress } from "@/lib/addresses/take-address";
import { connectEvmNetwork } from "@/lib/chain/evm/evm-network";
import { watchEvmChain } from "@/lib/chain/evm/watch-evm-chain";
import { forgetHdSeed } from "@/lib/chain/hd-seed";
import { forgetAccountKeys, loadAccountKeys } from "@/lib/chain/load-account-keys";
import { decideReview } from "@/lib/compliance/decide-review";
import { SecretBox } from "@/lib/crypto/secret-box";
import type { Db } from "@/lib/db/client";
import { chainTransactions, complianceReviews, deposits } from "@/lib/db/schema";
import { type AnvilNode, customer } from "../support/anvil";
import { pricing } from "../support/invoices";
import { type Credentials, createInstallation, type Installation, newMerchant } from "./harness";

/**
 * An installation whose CLI and servers watch `node` (2 confirmations) and screen payments against a
 * denylist naming the test customer, with one merchant: what a compliance refund's system test needs.
 */
export async function screenedEvmInstallation(
  node: AnvilNode,
): Promise<{ installation: Installation; merchant: Credentials }> {
  const installation = await createInstallation();
  // In the installation's directory, which its cleanup removes.
  const denylist = path.join(installation.dataDir, "denylist.txt");
  writeFileSync(denylist, `${customer.address}\n`);
  Object.assign(installation.env, {
    KASSA_EVM_RPC_URL: node.url,
    KASSA_EVM_CONFIRMATIONS: "2",
    KASSA_SCREENING_DENYLIST: denylist,
  });
  // The first CLI call migrates the database and generates the seed.
  const merchant = await newMerchant(installation);
  return { installation, merchant };
}

export type ScreenedChain = {
  db: Db;
  box: SecretBox;
  keys: Awaited<ReturnType<typeof loadAccountKeys>>;
  /** One pass of the EVM watcher in this process, screening what it credits. */
  watch: () => Promise<unknown>;
};

/**
 * Runs `work` in this process against the installation's database and chain, with the
 * installation's denylist in force for the watcher here, then closes the database.
 */
export async function onScreenedChain<T>(
  installation: Installation,
  node: AnvilNode,
  work: (chain: ScreenedChain) => Promise<T>,
): Promise<T> {
  process.env.KASSA_SCREENING_DENYLIST = installation.env.KASSA_SCREENING_DENYLIST;
  const database = await installation.open();
  try {
    const box = new SecretBox(Buffer.from(installation.env.KASSA_MASTER_KEY!, "hex"));
    forgetHdSeed();
    forgetAccountKeys();
    const keys = await loadAccountKeys(database.db, box);
    const network = await connectEvmNetwork({ rpcUrl: node.url, tokens: {}, confirmations: 2 });
    const watch = () => watchEvmChain(database.db, { network, pricing });
    return await work({ db: database.db, box, keys, watch });
  } finally {
    delete process.env.KASSA_SCREENING_DENYLIST;
    await database.close();
  }
}

/** A new ETH deposit address of the merchant's, for the denylisted customer to pay. */
export const takeEthAddress = (chain: ScreenedChain, merchantId: number, foreignId: string) =>
  takeAddress(chain.db, chain.keys, { merchantId, foreignId, currency: "ETH" });

/** Rejects, as the CLI's reviewer, the payment held for the payment to `address`: its review id. */
export async function rejectHeldPayment(
  db: Db,
  input: { merchantId: number; address: string },
): Promise<number> {
  const [row] = await db
    .select({ reviewId: complianceReviews.id })
    .from(complianceReviews)
    .innerJoin(deposits, eq(deposits.id, complianceReviews.depositId))
    .innerJoin(chainTransactions, eq(chainTransactions.id, deposits.chainTransactionId))
    .where(eq(chainTransactions.address, input.address));
  await decideReview(db, {
    merchantId: input.merchantId,
    reviewId: row!.reviewId,
    userId: null,
    decision: "reject",
    audit: { actor: { kind: "cli" } },
    pricing,
  });
  return row!.reviewId;
}
