import { createWalletClient, type Hash, http } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deriveHotWallet, hotWalletAddress } from "@/lib/chain/evm/payout/hot-wallet";
import { loadHdSeed } from "@/lib/chain/hd-seed";
import { type AnvilNode, customer, mineBlocks, payEth, startTestAnvil } from "../support/anvil";
import { cliProcess, cliRefused, complianceRefundArgs, type Installation } from "./harness";
import {
  onScreenedChain,
  rejectHeldPayment,
  screenedEvmInstallation,
  takeEthAddress,
} from "./screened-evm-installation";

const WEI_PER_LEDGER_UNIT = 10n ** 10n;

describe("the ops CLI process books a compliance refund from the node, and refuses a wrong one in plain words", () => {
  let node: AnvilNode;
  let installation: Installation;
  let reviewId: number;
  let refundHash: Hash;
  let strangerHash: Hash;
  let hotWallet: string;

  beforeAll(async () => {
    node = await startTestAnvil();
    const screened = await screenedEvmInstallation(node);
    installation = screened.installation;
    const { merchantId } = screened.merchant;
    // A denylisted customer's payment, held and rejected, read by a watcher in this process.
    await onScreenedChain(installation, node, async (chain) => {
      hotWallet = hotWalletAddress(chain.keys).toLowerCase();
      await chain.watch();
      const address = await takeEthAddress(chain, merchantId, "held");
      await payEth(node.url, { to: address.address, value: 2_000_000n * WEI_PER_LEDGER_UNIT });
      await mineBlocks(node.url, 2);
      await chain.watch();
      reviewId = await rejectHeldPayment(chain.db, { merchantId, address: address.address });

      // The operator's refund from the hot wallet (funded for gas), and someone else's transfer.
      await payEth(node.url, { to: hotWallet, value: 10n ** 17n });
      const hot = createWalletClient({
        account: deriveHotWallet(await loadHdSeed(chain.db, chain.box)),
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
    });
  });
  afterAll(async () => {
    await installation?.cleanup();
    await node?.stop();
  });

  it("answers a transaction not sent from the hot wallet with the reason and exit 1, no stack trace", async () => {
    const refused = await cliRefused(installation, ...complianceRefundArgs(reviewId, strangerHash));
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
    expect(await cliProcess(installation, ...complianceRefundArgs(reviewId, refundHash))).toMatchObject({
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
