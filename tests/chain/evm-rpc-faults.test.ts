import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectEvmNetwork } from "@/lib/chain/evm/evm-network";
import { type WatcherState, watchEvmChain } from "@/lib/chain/evm/watch-evm-chain";
import { loadInvoiceById } from "@/lib/invoices/load-invoice";
import { type AnvilNode, deployToken, mineBlocks, payToken, startTestAnvil } from "../support/anvil";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { createFixedInvoice, pricing } from "../support/invoices";
import { createTestMerchant } from "../support/merchants";

/**
 * A node in front of anvil that misbehaves like public RPC providers do: it refuses eth_getLogs over
 * more than MAX_LOG_RANGE blocks ("query returned more than 10000 results") and fails every
 * FAIL_EVERY-th request with a 503.
 */
const MAX_LOG_RANGE = 2n;
const FAIL_EVERY = 13;

function startFaultyProxy(target: string) {
  let count = 0;
  const refused = { ranges: 0, failures: 0 };
  const server = http.createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString();
    const call = JSON.parse(body) as {
      id: number;
      method: string;
      params: { fromBlock: string; toBlock: string }[];
    };
    if (++count % FAIL_EVERY === 0) {
      refused.failures++;
      response.writeHead(503).end("busy");
      return;
    }
    if (call.method === "eth_getLogs") {
      const { fromBlock, toBlock } = call.params[0]!;
      if (BigInt(toBlock) - BigInt(fromBlock) + 1n > MAX_LOG_RANGE) {
        refused.ranges++;
        response.writeHead(200, { "content-type": "application/json" }).end(
          JSON.stringify({
            jsonrpc: "2.0",
            id: call.id,
            error: { code: -32005, message: "query returned more than 10000 results" },
          }),
        );
        return;
      }
    }
    const upstream = await fetch(target, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    response.writeHead(upstream.status, { "content-type": "application/json" }).end(await upstream.text());
  });
  return new Promise<{ url: string; refused: typeof refused; close: () => Promise<void> }>((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        refused,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}

describe(`the EVM watcher on a node that refuses wide ranges and fails requests (${testDriver})`, () => {
  let node: AnvilNode;
  let proxy: Awaited<ReturnType<typeof startFaultyProxy>>;
  let database: TestDatabase;
  let usdt: Address;

  beforeAll(async () => {
    node = await startTestAnvil();
    usdt = await deployToken(node.url, { symbol: "USDT", decimals: 6, supply: 10n ** 15n });
    proxy = await startFaultyProxy(node.url);
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
    await proxy?.close();
    await node?.stop();
  });

  it("narrows its ranges, retries with backoff, and still finds every payment in order", async () => {
    const merchantId = await createTestMerchant(database, "Faults");
    const network = await connectEvmNetwork({ rpcUrl: proxy.url, tokens: { USDTE: usdt }, confirmations: 2 });
    const state: WatcherState = { range: 1n };
    const options = { network, pricing, state, baseDelayMs: 5, attempts: 8 };
    await watchEvmChain(database.db, options);
    const invoices = [];
    for (let i = 0; i < 5; i++) {
      const invoice = await createFixedInvoice(database.db, merchantId, "USDTE");
      await payToken(node.url, {
        token: usdt,
        to: invoice.address!.address,
        value: invoice.invoice.senderAmount! / 100n,
      });
      await mineBlocks(node.url, 6);
      invoices.push(invoice);
    }
    await mineBlocks(node.url, 2);
    // A pass may still fail after its retries when the node keeps failing; the next pass resumes.
    for (let pass = 0; pass < 5; pass++) {
      const outcome = await watchEvmChain(database.db, options).then(
        (r) => r,
        () => null,
      );
      if (outcome && outcome.cursor === outcome.tip) break;
    }
    for (const invoice of invoices)
      expect((await loadInvoiceById(database.db, invoice.id))!.status).toBe("confirmed");
    expect(proxy.refused.ranges).toBeGreaterThan(0);
    expect(proxy.refused.failures).toBeGreaterThan(0);
    expect(state.range).toBeLessThanOrEqual(MAX_LOG_RANGE * 2n);
  });
});
