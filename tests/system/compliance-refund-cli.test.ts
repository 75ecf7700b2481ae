import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { eq } from "drizzle-orm";
import { createWalletClient, type Hash, http } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { takeAddress } from "@/lib/addresses/take-address";
import { connectEvmNetwork } from "@/lib/chain/evm/evm-network";
import { deriveHotWallet, hotWalletAddress } from "@/lib/chain/evm/payout/hot-wallet";
import { watchEvmChain } from "@/lib/chain/evm/watch-evm-chain";
import { forgetHdSeed, loadHdSeed } from "@/lib/chain/hd-seed";
import { forgetAccountKeys, loadAccountKeys } from "@/lib/chain/load-account-keys";
import { decideReview } from "@/lib/compliance/decide-review";
import { SecretBox } from "@/lib/crypto/secret-box";
import { chainTransactions, complianceReviews, deposits } from "@/lib/db/schema";
import { TSX_FLAGS } from "../../scripts/tsx-flags.mjs";
import { type AnvilNode, customer, mineBlocks, payEth, startTestAnvil } from "../support/anvil";
import { type Credentials, cli, createInstallation, type Installation, newMerchant } from "./harness";

const root = path.resolve(import.meta.dirname, "../..");
const run = promisify(execFile);
const WEI_PER_LEDGER_UNIT = 10n ** 10n;

describe("the ops CLI process books a compliance refund from the node, and refuses a wrong one in plain words", () => {
  let node: AnvilNode;
  let installation: Installation;
  let merchant: Credentials;
  let reviewId: number;
  let refundHash: Hash;
  let strangerHash: Hash;
  let hotWallet: string;

  beforeAll(async () => {
    node = await startTestAnvil();
    installation = await createInstallation();
    const denylist = path.join(mkdtempSync(path.join(tmpdir(), "kassa-refund-cli-")), "denylist.txt");
    writeFileSync(denylist, `${customer.address}\n`);
    Object.assign(installation.env, {
      KASSA_EVM_RPC_URL: node.url,
      KASSA_EVM_CONFIRMATIONS: "2",
      KASSA_SCREENING_DENYLIST: denylist,
    });
    // The first CLI call migrates the database and generates the seed.
    merchant = await newMerchant(installation);

    // A denylisted customer's payment, held and rejected, read by a watcher in this process.
    process.env.KASSA_SCREENING_DENYLIST = denylist;
    const database = await installation.open();
    try {
      const box = new SecretBox(Buffer.from(installation.env.KASSA_MASTER_KEY!, "hex"));
      forgetHdSeed();
      forgetAccountKeys();
      const keys = await loadAccountKeys(database.db, box);
      hotWallet = hotWalletAddress(keys).toLowerCase();
      const network = await connectEvmNetwork({ rpcUrl: node.url, tokens: {}, confirmations: 2 });
      const watch = () => watchEvmChain(database.db, { network, spreadPpm: 5_000 });
      await watch();
      const address = await takeAddress(database.db, keys, {
        merchantId: merchant.merchantId,
        foreignId: "held",
        currency: "ETH",
      });
      await payEth(node.url, { to: address.address, value: 2_000_000n * WEI_PER_LEDGER_UNIT });
      await mineBlocks(node.url, 2);
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

      // The operator's refund from the hot wallet (funded for gas), and someone else's transfer.
      await payEth(node.url, { to: hotWallet, value: 10n ** 17n });
      const hot = createWalletClient({
        account: deriveHotWallet(await loadHdSeed(database.db, box)),
        chain: foundry,
        transport: http(node.url),
      });
      refundHash = await hot.sendTransaction({
        to: customer.address,
        value: 1_990_000n * WEI_PER_LEDGER_UNIT,
      });
      await node.publicClient.waitForTransactionReceipt({ hash: refundHash, pollingInterval: 20 });
      strangerHash = (
        await payEth(node.url, { to: privateKeyToAccount(generatePrivateKey()).address, value: 10n ** 15n })
      ).transactionHash;
      await mineBlocks(node.url, 2);
    } finally {
      delete process.env.KASSA_SCREENING_DENYLIST;
      await database.close();
    }
  });
  afterAll(async () => {
    await installation?.cleanup();
    await node?.stop();
  });

  it("answers a transaction not sent from the hot wallet with the reason and exit 1, no stack trace", async () => {
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
        strangerHash,
      ],
      { cwd: root, timeout: 60_000, env: { ...process.env, ...installation.env, NODE_ENV: "production" } },
    ).then(
      () => ({ code: 0, stderr: "" }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      "error: The given data was invalid.\n" +
        `  txid: This transaction was sent from ${customer.address.toLowerCase()}, not from the hot wallet ${hotWallet}: a refund leaves from the hot wallet.\n`,
    );
  });

  it("books the hot wallet's refund by its hash alone", async () => {
    const receipt = await node.publicClient.getTransactionReceipt({ hash: refundHash });
    const gasWei = receipt.gasUsed * receipt.effectiveGasPrice;
    const gasUnits = (gasWei + WEI_PER_LEDGER_UNIT - 1n) / WEI_PER_LEDGER_UNIT;
    expect(
      await cli(installation, "compliance", "refund", "--review", String(reviewId), "--txid", refundHash),
    ).toMatchObject({
      review_id: reviewId,
      currency: "ETH",
      amount: "0.02000000",
      sent: "0.01990000",
      fee: "0.00010000",
      gas: `0.${gasUnits.toString().padStart(8, "0")}`,
      refund_txid: refundHash,
    });
  });
});
