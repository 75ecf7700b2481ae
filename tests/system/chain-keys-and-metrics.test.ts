import { execFile } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { ripemd160 } from "@noble/hashes/legacy.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bech32 } from "@scure/base";
import { HDKey } from "@scure/bip32";
import { mnemonicToSeedSync } from "@scure/bip39";
import { eq, sql } from "drizzle-orm";
import { mnemonicToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SecretBox } from "@/lib/crypto/secret-box";
import { queryRows } from "@/lib/db/client";
import { settings } from "@/lib/db/schema";
import { TSX_FLAGS } from "../../scripts/tsx-flags.mjs";
import { type AnvilNode, deployToken, mineBlocks, payEth, startTestAnvil } from "../support/anvil";
import {
  type Credentials,
  cliProcess,
  createInstallation,
  type Installation,
  invoiceBody,
  type KassaProcess,
  kill,
  newMerchant,
  signed,
  startKassa,
  step,
} from "./harness";

const root = path.resolve(import.meta.dirname, "../..");
const run = promisify(execFile);
const METRICS_TOKEN = "a-long-metrics-token-for-tests";

/** The first address of this machine that is not loopback: how a remote scraper reaches the server. */
function externalAddress(): string {
  for (const addresses of Object.values(os.networkInterfaces()))
    for (const address of addresses ?? [])
      if (address.family === "IPv4" && !address.internal) return address.address;
  throw new Error("this machine has no non-loopback IPv4 address to test remote access with");
}

/**
 * A native segwit testnet address (BIP84 with coin type 1 and the tb prefix, as the sandbox chain hands
 * out), computed here from the mnemonic, apart from lib/chain.
 */
function bitcoinTestnetAddress(mnemonic: string, index: number): string {
  const key = HDKey.fromMasterSeed(mnemonicToSeedSync(mnemonic)).derive(`m/84'/1'/0'/0/${index}`);
  const program = ripemd160(sha256(key.publicKey!));
  return bech32.encode("tb", [0, ...bech32.toWords(program)]);
}

/** A sample's value from Prometheus text exposition, by its exact name-and-labels. */
function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe("keys web servers never hold, and the operators' /metrics, on real server processes", () => {
  let node: AnvilNode;
  let installation: Installation;
  let merchant: Credentials;
  let mnemonic: string;
  let server: KassaProcess | undefined;
  let evm: Record<string, string>;

  beforeAll(async () => {
    node = await startTestAnvil();
    const usdt = await deployToken(node.url, { symbol: "USDT", decimals: 6, supply: 10n ** 15n });
    const usdc = await deployToken(node.url, { symbol: "USDC", decimals: 6, supply: 10n ** 15n });
    installation = await createInstallation();
    evm = {
      KASSA_EVM_RPC_URL: node.url,
      KASSA_EVM_TOKENS: `USDTE=${usdt},USDC=${usdc}`,
      KASSA_EVM_CONFIRMATIONS: "2",
    };
    Object.assign(installation.env, evm);
    // The first boot (this CLI call) generates the seed and stores the account keys.
    merchant = await newMerchant(installation);

    // Then the sealed seed is made unopenable: any process that tries to open it fails loudly.
    const database = await installation.open();
    try {
      const box = new SecretBox(Buffer.from(installation.env.KASSA_MASTER_KEY!, "hex"));
      const rows = await database.db.select().from(settings);
      const sealed = rows.find((r) => r.key === "hd_mnemonic")!.value;
      mnemonic = box.open(sealed, "settings:hd_mnemonic");
      expect(rows.map((r) => r.key)).toContain("hd_account_xpubs");
      await database.db
        .update(settings)
        .set({ value: box.seal("not a mnemonic", "elsewhere") })
        .where(eq(settings.key, "hd_mnemonic"));
    } finally {
      await database.close();
    }
  });
  afterAll(async () => {
    if (server) await kill(server, "SIGTERM");
    await installation?.cleanup();
    await node?.stop();
  });

  it("a KASSA_JOBS=off server hands out EVM and sandbox addresses and serves the checkout without opening the seed", async () => {
    server = await startKassa(installation, { env: { ...evm, KASSA_JOBS: "off" } });
    const checkout = async (token: string) => {
      const response = await fetch(`${server!.base}/api/checkout/${token}`);
      expect(response.status).toBe(200);
      return (await response.json()) as { address: string | null };
    };
    const create = async (foreignId: string, overrides: Record<string, unknown>) => {
      const created = await signed(
        server!.base,
        merchant,
        "/invoices/create",
        invoiceBody(foreignId, overrides),
      );
      expect(created.status, created.text).toBe(201);
      return String(created.json.data!.url).split("/pay/")[1]!;
    };

    step("an invoice fixed to ETH: its address is handed out when the checkout opens");
    const eth = await create("keys-eth", { currency: "ETH", amount: "0.05", sender_currency: "ETH" });
    const first = await checkout(eth);
    expect(first.address).toBe(mnemonicToAccount(mnemonic, { addressIndex: 0 }).address);

    step("an invoice the customer pays in USDC, chosen on the page; and the hosted page itself");
    const usdc = await create("keys-usdc", { currency: "USDC", amount: "25", sender_currency: undefined });
    const chosen = await fetch(`${server.base}/api/checkout/${usdc}/currency`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.base },
      body: JSON.stringify({ currency: "USDC" }),
    });
    expect(chosen.status).toBe(200);
    expect(((await chosen.json()) as { address: string }).address).toBe(
      mnemonicToAccount(mnemonic, { addressIndex: 1 }).address,
    );
    const page = await fetch(`${server.base}/pay/${usdc}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(mnemonicToAccount(mnemonic, { addressIndex: 1 }).address);

    step("a sandbox BTC invoice: a testnet address from the same seed's BIP84 testnet account");
    const btc = await create("keys-btc", {});
    expect((await checkout(btc)).address).toBe(bitcoinTestnetAddress(mnemonic, 0));

    step("a permanent ETH address for a customer (addresses/take)");
    const taken = await signed(
      server.base,
      merchant,
      "/addresses/take",
      JSON.stringify({ currency: "ETH", foreign_id: "customer-1" }),
    );
    expect(taken.status).toBe(201);
    expect(taken.json.data!.address).toBe(mnemonicToAccount(mnemonic, { addressIndex: 2 }).address);

    // The seed could not have been opened: nothing failed, and nothing was logged as an error.
    expect(server.log.join("")).not.toMatch(/error|unsupported state|authenticate/i);
  });

  it("the CLI's chain commands answer through that server without the seed; reconcile exits 2 on a mismatch", async () => {
    const wallets = (await cliProcess(installation, "chain", "wallets")) as { evm: { address: string } };
    const hotWallet = mnemonicToAccount(mnemonic, { changeIndex: 1, addressIndex: 0 }).address;
    expect(wallets.evm.address).toBe(hotWallet);

    const funding = await payEth(node.url, { to: hotWallet, value: 25n * 10n ** 17n });
    await mineBlocks(node.url, 2);
    const reconcile = () =>
      run(process.execPath, [...TSX_FLAGS, "cli/index.ts", "chain", "reconcile", "--json"], {
        cwd: root,
        timeout: 60_000,
        env: { ...process.env, ...installation.env, NODE_ENV: "production" },
      }).then(
        ({ stdout }) => ({ code: 0, result: JSON.parse(stdout) }),
        (error: { code: number; stdout: string }) => ({ code: error.code, result: JSON.parse(error.stdout) }),
      );
    const unrecorded = await reconcile();
    expect(unrecorded.code).toBe(2);
    expect(unrecorded.result.currencies.ETH).toMatchObject({ unexplained: "2.5", is_reconciled: false });

    expect(
      await cliProcess(installation, "chain", "fund", "--currency", "ETH", "--txid", funding.transactionHash),
    ).toMatchObject({ amount: "2.50000000", recorded: true });
    const recorded = await reconcile();
    expect(recorded.code).toBe(0);
    expect(recorded.result).toMatchObject({ is_reconciled: true, hot_wallet: hotWallet });
  });

  it("/metrics answers loopback scrapes with the chain, the queues, the callbacks and the hot wallet", async () => {
    const response = await fetch(`${server!.base}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    const tip = Number(await node.publicClient.getBlockNumber({ cacheTime: 0 }));
    const hotWallet = mnemonicToAccount(mnemonic, { changeIndex: 1, addressIndex: 0 }).address;
    expect(sample(text, "kassa_evm_node_up")).toBe(1);
    expect(sample(text, 'kassa_chain_tip_block{network="ethereum"}')).toBe(tip);
    // No job runner runs here, so no watcher has read the chain: it is the whole chain behind.
    expect(sample(text, 'kassa_chain_tip_lag_blocks{network="ethereum"}')).toBe(tip);
    expect(
      sample(text, `kassa_hot_wallet_balance{network="ethereum",currency="ETH",address="${hotWallet}"}`),
    ).toBe(2.5);
    expect(
      sample(text, `kassa_hot_wallet_balance{network="ethereum",currency="USDC",address="${hotWallet}"}`),
    ).toBe(0);
    // No job runner: the invoices' expiries wait (compared with the database in the next test).
    expect(sample(text, 'kassa_job_queue_depth{queue="invoice.expire"}')).toBeGreaterThanOrEqual(3);
    expect(sample(text, 'kassa_job_queue_depth{queue="withdrawal.broadcast"}')).toBe(0);
    expect(sample(text, "kassa_callbacks_failed")).toBe(0);
    expect(text).toContain("# TYPE kassa_job_queue_depth gauge");
    // The process's own health (prom-client's defaults): memory, heap, garbage collection, event loop.
    expect(sample(text, "process_resident_memory_bytes")).toBeGreaterThan(10 * 1024 * 1024);
    expect(sample(text, "nodejs_heap_size_used_bytes")).toBeGreaterThan(0);
    expect(text).toContain("# TYPE nodejs_eventloop_lag_seconds gauge");
    expect(text).toContain("# TYPE nodejs_gc_duration_seconds histogram");
  });

  it("/metrics counts the queues as the database does; it is hidden from other addresses, and with a token answers only the token, loopback included", async () => {
    await kill(server!, "SIGTERM");
    // What is queued, counted in the database while no server holds it.
    const database = await installation.open();
    const queued = await queryRows<{ queue: string; n: number }>(
      database.db,
      sql`select queue, count(*)::int as n from jobs where status = 'queued' group by queue`,
    );
    await database.close();
    expect(queued.length).toBeGreaterThan(0);

    const remote = (kassa: KassaProcess) => `http://${externalAddress()}:${kassa.port}/metrics`;
    server = await startKassa(installation, { env: { ...evm, KASSA_JOBS: "off", HOST: "0.0.0.0" } });
    expect((await fetch(remote(server))).status).toBe(404);
    const local = await fetch(`${server.base}/metrics`);
    expect(local.status).toBe(200);
    const text = await local.text();
    for (const { queue, n } of queued)
      expect(sample(text, `kassa_job_queue_depth{queue="${queue}"}`)).toBe(n);
    // The rest of the server is reachable from there: only /metrics is hidden.
    expect((await fetch(remote(server).replace("/metrics", "/api/v2/ping"))).status).toBe(200);

    await kill(server, "SIGTERM");
    server = await startKassa(installation, {
      env: { ...evm, KASSA_JOBS: "off", HOST: "0.0.0.0", KASSA_METRICS_TOKEN: METRICS_TOKEN },
    });
    const withToken = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
    const refused = await fetch(remote(server));
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
    expect((await fetch(remote(server), withToken("a-wrong-token-of-some-length"))).status).toBe(401);
    expect((await fetch(`${server.base}/metrics`)).status).toBe(401);
    const allowed = await fetch(remote(server), withToken(METRICS_TOKEN));
    expect(allowed.status).toBe(200);
    expect(await allowed.text()).toContain("kassa_job_queue_depth");
  });
});
