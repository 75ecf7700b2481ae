import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MainNetworkInSandboxError } from "@/lib/chain/assert-sandbox-network";
import { offeringFor } from "@/lib/chain/evm/evm-offering";
import { evmWatcherTask } from "@/lib/chain/evm/evm-watcher-task";
import { evmPayoutTask } from "@/lib/chain/evm/payout/evm-payout-task";
import { configureOffering, isOffered } from "@/lib/currencies/offering";
import { runEngineAction } from "@/lib/host/run-engine-action";
import { type AnvilNode, freePort, startTestAnvil } from "../support/anvil";
import { createTestDatabase, type TestDatabase } from "../support/database";
import { pricingWith } from "../support/invoices";

/**
 * Sandbox mode beside a node whose chain id is 1: sandbox credits and editable prices would be paid
 * out in real ether, so the start is refused, and a node that first answers later is never used.
 */
describe("sandbox mode against an EVM main network", () => {
  let mainnet: AnvilNode;
  let late: AnvilNode | undefined;
  let database: TestDatabase | undefined;
  let dataDir: string;

  beforeAll(async () => {
    mainnet = await startTestAnvil({ chainId: 1 });
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "kassa-mainnet-"));
  });
  afterAll(async () => {
    configureOffering(undefined);
    await database?.drop();
    await mainnet?.stop();
    await late?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("refuses to start, with a message that names the chain and the variable", async () => {
    process.env.KASSA_MODE = "sandbox";
    process.env.KASSA_DATA_DIR = dataDir;
    process.env.KASSA_EVM_RPC_URL = mainnet.url;
    const answer = await runEngineAction({ action: "start" });
    expect(answer.status).toBe(503);
    expect(answer.body).toEqual({
      code: "cannot_start",
      error: expect.stringMatching(
        /^Sandbox mode refuses to run against an EVM main network \(chain id 1\).*KASSA_EVM_RPC_URL/,
      ),
    });
    // Nothing was left running: the data directory's lock is free for the next start.
    expect(fs.existsSync(path.join(dataDir, "kassa.lock"))).toBe(false);
  });

  it("refuses a node that was down at start and answers later on chain id 1: its currencies stay closed", async () => {
    const port = await freePort();
    const evm = {
      rpcUrl: `http://127.0.0.1:${port}`,
      tokens: {},
      confirmations: 1,
      mode: "sandbox" as const,
    };
    configureOffering(await offeringFor({ mode: "sandbox", evm }));
    expect(isOffered("ETH")).toBe(false);

    late = await startTestAnvil({ port, chainId: 1 });
    database = await createTestDatabase();
    const { db } = database;
    const watcher = evmWatcherTask({ config: evm, pricing: pricingWith(0) });
    await expect(watcher.run(db)).rejects.toBeInstanceOf(MainNetworkInSandboxError);
    // Every pass asks again and is refused again; the payout task, which would spend from the hot
    // wallet, is refused the same way.
    await expect(watcher.run(db)).rejects.toThrow(/chain id 1/);
    await expect(evmPayoutTask({ config: evm }).run(db)).rejects.toBeInstanceOf(MainNetworkInSandboxError);
    expect(isOffered("ETH")).toBe(false);
  });
});
