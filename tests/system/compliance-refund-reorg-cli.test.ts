import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "@/lib/db/client";
import { complianceReviews } from "@/lib/db/schema";
import { type AnvilNode, mineBlocks, payEth, reorg, startTestAnvil } from "../support/anvil";
import { cliRefused, complianceRefundArgs, type Installation } from "./harness";
import {
  onScreenedChain,
  rejectHeldPayment,
  screenedEvmInstallation,
  takeEthAddress,
} from "./screened-evm-installation";

const WEI_PER_LEDGER_UNIT = 10n ** 10n;

describe("the ops CLI refuses the refund of a rejected payment a reorganisation had removed, in plain words", () => {
  let node: AnvilNode;
  let installation: Installation;
  let reviewId: number;

  beforeAll(async () => {
    node = await startTestAnvil();
    const screened = await screenedEvmInstallation(node);
    installation = screened.installation;
    const { merchantId } = screened.merchant;
    // A denylisted customer's payment, held, its block then removed, and rejected: nothing arrived.
    await onScreenedChain(installation, node, async (chain) => {
      await chain.watch();
      await mineBlocks(node.url, 4);
      await chain.watch();
      const address = await takeEthAddress(chain, merchantId, "removed");
      await payEth(node.url, { to: address.address, value: 2_000_000n * WEI_PER_LEDGER_UNIT });
      await mineBlocks(node.url, 2);
      await chain.watch();
      await reorg(node.url, 4);
      await chain.watch();
      reviewId = await rejectHeldPayment(chain.db, { merchantId, address: address.address });
    });
  });
  afterAll(async () => {
    await installation?.cleanup();
    await node?.stop();
  });

  it("answers with the reason and exit 1, before asking the node, and books nothing", async () => {
    const refused = await cliRefused(installation, ...complianceRefundArgs(reviewId, `0x${"ab".repeat(32)}`));
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
