import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectEvmNetwork, type EvmNetwork } from "@/lib/chain/evm/evm-network";
import { watchEvmChain } from "@/lib/chain/evm/watch-evm-chain";
import { queryRows } from "@/lib/db/client";
import { loadInvoiceById } from "@/lib/invoices/load-invoice";
import { TSX_FLAGS } from "../../scripts/tsx-flags.mjs";
import { type AnvilNode, deployToken, mineBlocks, payToken, startTestAnvil } from "../support/anvil";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { createFixedInvoice, pricing } from "../support/invoices";
import { ledgerInvariants } from "../support/ledger";
import { createTestMerchant } from "../support/merchants";

const CONFIRMATIONS = 2;

describe(`the EVM watcher across restarts (${testDriver})`, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kassa-anvil-state-"));
  const state = path.join(dir, "state.json");
  let node: AnvilNode;
  let database: TestDatabase;
  let network: EvmNetwork;
  let merchantId: number;
  let usdt: Address;

  const connect = async () => {
    network = await connectEvmNetwork({
      rpcUrl: node.url,
      tokens: { USDTE: usdt },
      confirmations: CONFIRMATIONS,
    });
  };
  const creditedCount = async () =>
    Number(
      (
        await queryRows<{ n: number }>(
          database.db,
          sql`select count(*)::int as n from journals where kind = 'invoice_payment'`,
        )
      )[0]!.n,
    );

  beforeAll(async () => {
    node = await startTestAnvil({ dir: path.join(dir, "node"), state });
    usdt = await deployToken(node.url, { symbol: "USDT", decimals: 6, supply: 10n ** 15n });
    database = await createTestDatabase({ isPersistent: true });
    merchantId = await createTestMerchant(database, "Restarts");
    await connect();
    await watchEvmChain(database.db, { network, pricing });
  });
  afterAll(async () => {
    await database?.drop();
    await node?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function payInvoices(count: number) {
    const invoices = [];
    for (let i = 0; i < count; i++) {
      const invoice = await createFixedInvoice(database.db, merchantId, "USDTE");
      await payToken(node.url, {
        token: usdt,
        to: invoice.address!.address,
        value: invoice.invoice.senderAmount! / 100n,
      });
      await mineBlocks(node.url, 1);
      invoices.push(invoice);
    }
    await mineBlocks(node.url, CONFIRMATIONS);
    return invoices;
  }

  it("a watcher that dies in the middle of its ranges resumes from its cursor: nothing missed, nothing twice", async () => {
    const invoices = await payInvoices(4);
    let stored = 0;
    const crashed = await watchEvmChain(database.db, {
      network,
      pricing,
      state: { range: 1n },
      onStored: () => {
        if (++stored === 2) throw new Error("killed"); // ranges of 1 then 2 blocks: two payments in
      },
    }).then(
      () => undefined,
      (error: Error) => error,
    );
    expect(crashed?.message).toBe("killed");
    const before = await queryRows<{ status: string }>(
      database.db,
      sql`select status from transactions where id in (${sql.join(
        invoices.map((i) => sql`${i.id}`),
        sql`, `,
      )})`,
    );
    expect(before.some((row) => row.status === "pending")).toBe(true); // it really stopped half-way

    database = await database.reopen();
    await watchEvmChain(database.db, { network, pricing });
    for (const invoice of invoices)
      expect((await loadInvoiceById(database.db, invoice.id))!.status).toBe("confirmed");
    const entries = await creditedCount();
    await watchEvmChain(database.db, { network, pricing });
    expect(await creditedCount()).toBe(entries);
  });

  it("a watcher process killed with SIGKILL in the middle of its work misses nothing and credits nothing twice", async () => {
    const invoices = await payInvoices(4);
    const entries = await creditedCount();
    await database.close(); // on PGlite only one process may have the directory open
    const child = spawn(process.execPath, [...TSX_FLAGS, "tests/support/evm-watcher-child.ts"], {
      env: {
        ...process.env,
        KASSA_CHILD_DB: JSON.stringify(database.location),
        KASSA_CHILD_RPC_URL: node.url,
        KASSA_CHILD_TOKENS: JSON.stringify({ USDTE: usdt }),
        KASSA_CHILD_CONFIRMATIONS: String(CONFIRMATIONS),
      },
      stdio: ["ignore", "pipe", "inherit"],
    });
    const exited = new Promise((resolve) => child.once("exit", resolve));
    let output = "";
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        if ((output.match(/stored/g) ?? []).length >= 3) resolve();
      });
      child.once("exit", () => reject(new Error(`the watcher ended before it was killed:\n${output}`)));
    });
    child.kill("SIGKILL");
    await exited;
    expect(output).not.toContain("done");

    database = await database.reopen();
    await watchEvmChain(database.db, { network, pricing });
    for (const invoice of invoices)
      expect((await loadInvoiceById(database.db, invoice.id))!.status).toBe("confirmed");
    expect((await creditedCount()) - entries).toBe(invoices.length);
  });

  it("two watchers running at once credit each payment once", async () => {
    const invoices = await payInvoices(3);
    const entries = await creditedCount();
    await Promise.all([
      watchEvmChain(database.db, { network, pricing, state: { range: 1n } }),
      watchEvmChain(database.db, { network, pricing, state: { range: 2n } }),
    ]);
    for (const invoice of invoices)
      expect((await loadInvoiceById(database.db, invoice.id))!.status).toBe("confirmed");
    const deposits = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from deposits where transaction_id in (${sql.join(
        invoices.map((i) => sql`${i.id}`),
        sql`, `,
      )})`,
    );
    expect(deposits[0]!.n).toBe(3);
    expect((await creditedCount()) - entries).toBe(3); // one journal per payment
    expect(await ledgerInvariants(database.db)).toMatchObject({
      nonZeroCurrencies: [],
      accountsNotMatchingEntries: 0,
    });
  });

  it("resumes after the node restarts with its --state", async () => {
    const tipBefore = await node.publicClient.getBlockNumber({ cacheTime: 0 });
    await node.stop();
    node = await startTestAnvil({ dir: path.join(dir, "node"), state });
    expect(await node.publicClient.getBlockNumber({ cacheTime: 0 })).toBe(tipBefore);
    await connect();
    const [invoice] = await payInvoices(1);
    const pass = await watchEvmChain(database.db, { network, pricing });
    expect(pass.reorgs).toBe(0);
    expect((await loadInvoiceById(database.db, invoice!.id))!.status).toBe("confirmed");
  });
});
