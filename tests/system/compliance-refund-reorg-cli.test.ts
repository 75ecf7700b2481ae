import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { takeAddress } from "@/lib/addresses/take-address";
import { connectEvmNetwork } from "@/lib/chain/evm/evm-network";
import { watchEvmChain } from "@/lib/chain/evm/watch-evm-chain";
import { forgetHdSeed } from "@/lib/chain/hd-seed";
import { forgetAccountKeys, loadAccountKeys } from "@/lib/chain/load-account-keys";
import { decideReview } from "@/lib/compliance/decide-review";
import { SecretBox } from "@/lib/crypto/secret-box";
import { queryRows } from "@/lib/db/client";
import { chainTransactions, complianceReviews, deposits } from "@/lib/db/schema";
import { TSX_FLAGS } from "../../scripts/tsx-flags.mjs";
import { type AnvilNode, customer, mineBlocks, payEth, reorg, startTestAnvil } from "../support/anvil";
import { createInstallation, type Installation, newMerchant } from "./harness";

const root = path.resolve(import.meta.dirname, "../..");
const run = promisify(execFile);
const WEI_PER_LEDGER_UNIT = 10n ** 10n;

describe("the ops CLI refuses the refund of a rejected payment a reorganisation had removed, in plain words", () => {
  let node: AnvilNode;
  let installation: Installation;
  let reviewId: number;

  beforeAll(async () => {
    node = await startTestAnvil();
    installation = await createInstallation();
    const denylist = path.join(mkdtempSync(path.join(tmpdir(), "kassa-refund-reorg-cli-")), "denylist.txt");
    writeFileSync(denylist, `${customer.address}\n`);
    Object.assign(installation.env, {
      KASSA_EVM_RPC_URL: node.url,
      KASSA_EVM_CONFIRMATIONS: "2",
      KASSA_SCREENING_DENYLIST: denylist,
    });
    const merchant = await newMerchant(installation);

    // A denylisted customer's payment, held, its block then removed, and rejected: nothing arrived.
    process.env.KASSA_SCREENING_DENYLIST = denylist;
    const database = await installation.open();
    try {
      const box = new SecretBox(Buffer.from(installation.env.KASSA_MASTER_KEY!, "hex"));
      forgetHdSeed();
      forgetAccountKeys();
      const keys = await loadAccountKeys(database.db, box);
      const network = await connectEvmNetwork({ rpcUrl: node.url, tokens: {}, confirmations: 2 });
      const watch = () => watchEvmChain(database.db, { network, spreadPpm: 5_000 });
      await watch();
      await mineBlocks(node.url, 4);
      await watch();
      const address = await takeAddress(database.db, keys, {
        merchantId: merchant.merchantId,
        foreignId: "removed",
        currency: "ETH",
      });
      await payEth(node.url, { to: address.address, value: 2_000_000n * WEI_PER_LEDGER_UNIT });
      await mineBlocks(node.url, 2);
      await watch();
      await reorg(node.url, 4);
      await watch();
      const [row] = await database.db
        .select({ reviewId: complianceReviews.id })
        .from(complianceReviews)
        .innerJoin(deposits, eq(deposits.id, complianceReviews.depositId))
        .innerJoin(chainTransactions, eq(chainTransactions.id, deposits.chainTransactionId))
        .where(eq(chainTransactions.address, address.address));
      reviewId = row!.reviewId;
      await decideReview(database.db, {
        merchantId: merchant.merchantId,
        reviewId,
        userId: null,
        decision: "reject",
        audit: { actor: { kind: "cli" } },
        spreadPpm: 5_000,
      });
    } finally {
      delete process.env.KASSA_SCREENING_DENYLIST;
      await database.close();
    }
  });
  afterAll(async () => {
    await installation?.cleanup();
    await node?.stop();
  });

  it("answers with the reason and exit 1, before asking the node, and books nothing", async () => {
    const refused = await run(
      process.execPath,
      [
        ...TSX_FLAGS,
        "cli/index.ts",
        "compliance",
        "refund",
        "--review",
        String(reviewId),
        "--txid",
        `0x${"ab".repeat(32)}`,
      ],
      { cwd: root, timeout: 60_000, env: { ...process.env, ...installation.env, NODE_ENV: "production" } },
    ).then(
      () => ({ code: 0, stderr: "" }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      "error: The given data was invalid.\n" +
        "  review: A reorganisation removed this payment's block before it was rejected: no coins arrived and nothing is held, so there is nothing to refund.\n",
    );
    // Nothing moved: the held account never saw this payment, and the review is not refunded.
    const database = await installation.open();
    try {
      const [held] = await queryRows<{ n: string }>(
        database.db,
        sql`select count(*)::text as n from ledger_entries e join ledger_accounts a on a.id = e.account_id
            where a.kind = 'platform:compliance_held'`,
      );
      expect(held!.n).toBe("0");
      const [review] = await database.db
        .select({ refundedAt: complianceReviews.refundedAt, status: complianceReviews.status })
        .from(complianceReviews)
        .where(eq(complianceReviews.id, reviewId));
      expect(review).toEqual({ refundedAt: null, status: "rejected" });
    } finally {
      await database.close();
    }
  });
});
