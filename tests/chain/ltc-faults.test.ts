import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { mineDueSandboxBlocks, mineSandboxBlocks } from "@/lib/chain/sandbox/mine-blocks";
import { sendSandboxPayment } from "@/lib/chain/sandbox/send-payment";
import { connectUtxoNetwork, type UtxoNetwork } from "@/lib/chain/utxo/utxo-network";
import { withUtxoOfferings } from "@/lib/chain/utxo/utxo-offering";
import { utxoWatcherTask } from "@/lib/chain/utxo/utxo-watcher-task";
import { type UtxoWatcherState, watchUtxoChain } from "@/lib/chain/utxo/watch-utxo-chain";
import { configureOffering, currentOffering, isOffered, type Offering } from "@/lib/currencies/offering";
import { queryRows } from "@/lib/db/client";
import { loadInvoiceById } from "@/lib/invoices/load-invoice";
import { startLitecoind } from "@/scripts/litecoind.mjs";
import { freePort } from "../support/anvil";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { createFixedInvoice, pricing, pricingWith } from "../support/invoices";
import { NODE_START_MS, startTestLitecoind, type TestLitecoind } from "../support/litecoind";
import { createTestMerchant, fieldsOf } from "../support/merchants";

const CONFIRMATIONS = 2;
const PASSWORD = "s3cret-rpc-password";

const BASE: Offering = {
  mode: "sandbox",
  realNetworks: {},
  realCurrencies: [],
  contracts: {},
  chainIds: {},
  decimals: {},
  confirmations: {},
};

/** A proxy in front of the node that never answers every `hangEvery`-th request (a node that times out). */
function startHangingProxy(target: { port: number }, hangEvery: number) {
  let count = 0;
  const hung = { requests: 0 };
  const server = http.createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    if (++count % hangEvery === 0) {
      hung.requests++;
      return; // no answer: the client's timeout must end the call
    }
    const upstream = await fetch(`http://127.0.0.1:${target.port}/`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: request.headers.authorization ?? "" },
      body: Buffer.concat(chunks),
    });
    response.writeHead(upstream.status, { "content-type": "application/json" }).end(await upstream.text());
  });
  return new Promise<{ port: number; hung: typeof hung; close: () => Promise<void> }>((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      resolve({
        port: (server.address() as AddressInfo).port,
        hung,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

describe(`the Litecoin watcher through faults (${testDriver})`, () => {
  let customer: TestLitecoind;
  let database: TestDatabase;
  let merchantId: number;
  let network: UtxoNetwork;

  beforeAll(async () => {
    customer = await startTestLitecoind();
    database = await createTestDatabase();
    merchantId = await createTestMerchant(database, "Faults");
    network = await connectUtxoNetwork(
      "LTC",
      { rpcUrl: customer.url, confirmations: CONFIRMATIONS },
      "sandbox",
    );
    configureOffering(
      await withUtxoOfferings(
        { mode: "sandbox", utxo: { LTC: { rpcUrl: customer.url, confirmations: CONFIRMATIONS } } },
        BASE,
      ),
    );
    await watchUtxoChain(database.db, { network, pricing });
  }, NODE_START_MS);
  afterAll(async () => {
    configureOffering(undefined);
    await database?.drop();
    await customer?.stop();
  });

  const creditedCount = async () =>
    Number(
      (
        await queryRows<{ n: string }>(
          database.db,
          sql`select count(*)::text as n from deposits d join chain_transactions c on c.id = d.chain_transaction_id
              where c.network = 'litecoin' and d.status = 'credited'`,
        )
      )[0]!.n,
    );
  /** Journals booked per invoice: one per credited payment, never two. */
  const journalsOf = async (transactionId: number) =>
    Number(
      (
        await queryRows<{ n: string }>(
          database.db,
          sql`select count(*)::text as n from journals where transaction_id = ${transactionId} and kind = 'invoice_payment'`,
        )
      )[0]!.n,
    );

  it("refuses the sandbox endpoints for LTC with a 400 naming the real chain, and leaves BTC simulated", async () => {
    expect(currentOffering()!.realNetworks).toEqual({ litecoin: "Litecoin regtest" });
    const invoice = await createFixedInvoice(database.db, merchantId, "LTC");
    const payment = await fieldsOf(
      sendSandboxPayment(database.db, {
        currency: "LTC",
        address: invoice.address!.address,
        amount: 100_000_000n,
      }),
    );
    expect(payment.currency).toContain("real Litecoin regtest network");
    const blocks = await fieldsOf(mineSandboxBlocks(database.db, { currency: "LTC", count: 1 }));
    expect(blocks.currency).toContain("real Litecoin regtest network");
    expect(isOffered("BTC")).toBe(true);
    await expect(
      createFixedInvoice(database.db, merchantId, "BTC").then((i) => i.address!.address),
    ).resolves.toMatch(/^tb1q/);
  });

  it("never lets the sandbox block timer mine a real payment, even while LTC is closed because its node is down", async () => {
    const invoice = await createFixedInvoice(database.db, merchantId, "LTC");
    const txid = await customer.pay(invoice.address!.address, invoice.invoice.senderAmount!);
    await watchUtxoChain(database.db, { network, pricing });
    const offering = currentOffering();
    // As after a restart with the node down: LTC's network is real but carries no currency yet.
    configureOffering({ ...offering!, realCurrencies: [] });
    try {
      await database.db.execute(sql`update chain_tips set mined_at = 'epoch'`);
      const mined = await mineDueSandboxBlocks(database.db, 1);
      expect(mined.filter((m) => m.currency === "LTC")).toEqual([]);
    } finally {
      configureOffering(offering);
    }
    const [row] = await queryRows<{ block_height: number | null }>(
      database.db,
      sql`select block_height from chain_transactions where txid = ${txid}`,
    );
    expect(row!.block_height).toBeNull();
    await customer.mine(CONFIRMATIONS);
    await watchUtxoChain(database.db, { network, pricing });
    expect((await loadInvoiceById(database.db, invoice.id))!.status).toBe("confirmed");
  });

  it("credits every payment exactly once when two watchers run their passes at the same time", async () => {
    const before = await creditedCount();
    const invoices = [];
    for (let i = 0; i < 4; i++) {
      const invoice = await createFixedInvoice(database.db, merchantId, "LTC");
      await customer.pay(invoice.address!.address, invoice.invoice.senderAmount!);
      invoices.push(invoice);
      if (i === 1) await customer.mine(1); // two in a block (one confirmation short), two in the mempool
    }
    const states: UtxoWatcherState[] = [{ examined: new Set() }, { examined: new Set() }];
    const both = () =>
      Promise.all(states.map((state) => watchUtxoChain(database.db, { network, pricing, state })));
    await both();
    for (const invoice of invoices)
      expect((await loadInvoiceById(database.db, invoice.id))!.status).toBe("processing");
    await customer.mine(CONFIRMATIONS);
    await both();
    await both();
    for (const invoice of invoices)
      expect((await loadInvoiceById(database.db, invoice.id))!.status).toBe("confirmed");
    expect((await creditedCount()) - before).toBe(4);
    const rows = await queryRows<{ n: string }>(
      database.db,
      sql`select count(*)::text as n from chain_transactions where network = 'litecoin' group by txid, log_index having count(*) > 1`,
    );
    expect(rows).toEqual([]);
    for (const invoice of invoices) expect(await journalsOf(invoice.id)).toBe(1);
  });

  it("resumes from its cursor after a pass stopped mid-way, missing nothing", async () => {
    const invoices = [];
    for (let i = 0; i < 3; i++) {
      const invoice = await createFixedInvoice(database.db, merchantId, "LTC");
      await customer.pay(invoice.address!.address, invoice.invoice.senderAmount!);
      await customer.mine(1);
      invoices.push(invoice);
    }
    await customer.mine(CONFIRMATIONS);
    let stored = 0;
    const killed = watchUtxoChain(database.db, {
      network,
      pricing,
      onStored: () => {
        if (++stored === 2) throw new Error("killed after two blocks");
      },
    });
    await expect(killed).rejects.toThrow("killed after two blocks");
    await watchUtxoChain(database.db, { network, pricing });
    for (const invoice of invoices)
      expect((await loadInvoiceById(database.db, invoice.id))!.status).toBe("confirmed");
  });

  it("gets through RPC calls that time out, with retries, and credits each payment once", async () => {
    const proxy = await startHangingProxy(customer.node, 7);
    try {
      const slow = await connectUtxoNetwork(
        "LTC",
        {
          rpcUrl: `http://kassa:${customer.node.password}@127.0.0.1:${proxy.port}`,
          confirmations: CONFIRMATIONS,
        },
        "sandbox",
        { timeoutMs: 300 },
      );
      const before = await creditedCount();
      const invoices = [];
      for (let i = 0; i < 3; i++) {
        const invoice = await createFixedInvoice(database.db, merchantId, "LTC");
        await customer.pay(invoice.address!.address, invoice.invoice.senderAmount!);
        invoices.push(invoice);
      }
      await customer.mine(CONFIRMATIONS);
      const errors: string[] = [];
      for (let pass = 0; pass < 6; pass++) {
        const outcome = await watchUtxoChain(database.db, {
          network: slow,
          pricing,
          baseDelayMs: 5,
          attempts: 4,
        }).catch((error: Error) => {
          errors.push(error.message);
          return null;
        });
        if (outcome && outcome.cursor === outcome.tip && outcome.credited === 0 && pass > 0) break;
      }
      for (const invoice of invoices)
        expect((await loadInvoiceById(database.db, invoice.id))!.status).toBe("confirmed");
      expect((await creditedCount()) - before).toBe(3);
      expect(proxy.hung.requests).toBeGreaterThan(0);
      for (const message of errors) expect(message).not.toContain(customer.node.password);
    } finally {
      await proxy.close();
    }
  });
});

describe("the Litecoin node down, restarted, or on the wrong chain", () => {
  let database: TestDatabase;
  const dirs: string[] = [];
  const stops: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
  }, NODE_START_MS);
  afterAll(async () => {
    configureOffering(undefined);
    for (const stop of stops) await stop();
    await database?.drop();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("offers LTC in production only once its node answers, and never names the credentials", async () => {
    const port = await freePort();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kassa-ltc-late-"));
    dirs.push(dir);
    fs.writeFileSync(path.join(dir, "rpc-password"), PASSWORD);
    const utxo = {
      LTC: { rpcUrl: `http://kassa:${PASSWORD}@127.0.0.1:${port}`, confirmations: CONFIRMATIONS },
    };
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    configureOffering(await withUtxoOfferings({ mode: "production", utxo }, { ...BASE, mode: "production" }));
    expect(isOffered("LTC")).toBe(false);
    expect(isOffered("BTC")).toBe(false);
    const task = utxoWatcherTask({ currency: "LTC", config: utxo.LTC, mode: "production", pricing });
    const down = await task.run(database.db).catch((error: Error) => error);
    expect(down).toBeInstanceOf(Error);
    const said = [...warn.mock.calls.flat(), (down as Error).message].join("\n");
    warn.mockRestore();
    expect(said).toContain("127.0.0.1");
    expect(said).not.toContain(PASSWORD);

    const node = await startLitecoind({ port, dir });
    stops.push(node.stop);
    await task.run(database.db);
    expect(isOffered("LTC")).toBe(true);
    expect(currentOffering()!.mode).toBe("production");
    expect(isOffered("BTC")).toBe(false);
    // The watcher survives the node restarting: a pass fails while it is down, the next one goes on.
    await node.stop();
    await expect(task.run(database.db)).rejects.toThrow(/unreachable/);
    const again = await startLitecoind({ port, dir });
    stops.push(again.stop);
    await expect(task.run(database.db)).resolves.toMatchObject({ reorgs: 0 });
  });

  it("refuses a mainnet node in sandbox mode, at start and in the watcher", async () => {
    const main = await startLitecoind({ chain: "main" });
    stops.push(main.stop);
    const utxo = { LTC: { rpcUrl: main.url, confirmations: undefined } };
    await expect(withUtxoOfferings({ mode: "sandbox", utxo }, BASE)).rejects.toThrow(
      /^Sandbox mode refuses to run against LTC's main network.*KASSA_LTC_RPC_URL/,
    );
    const task = utxoWatcherTask({
      currency: "LTC",
      config: utxo.LTC,
      mode: "sandbox",
      pricing: pricingWith(0),
    });
    await expect(task.run(database.db)).rejects.toThrow(
      /^Sandbox mode refuses to run against LTC.s main network/,
    );
    // Production takes it, on mainnet formats.
    const production = await withUtxoOfferings({ mode: "production", utxo }, { ...BASE, mode: "production" });
    expect(production.nets).toEqual({ litecoin: "mainnet" });
    expect(production.realNetworks).toEqual({ litecoin: "Litecoin" });
  });
});
