import { request as playwrightRequest } from "@playwright/test";
import type { Hash } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { onAnvil, serverEnv } from "../../playwright.config";
import { type AnvilNode, mineBlocks, payEth, startTestAnvil } from "../../tests/support/anvil";
import { cliOn, createMerchant, expect, signedClient, test } from "../fixtures";
import { ltcInvoice, shown, units } from "../ltc-invoice";
import { type KassaServer, startKassaServer } from "../servers";
import { expectAccessible, expectNoSidewaysScroll } from "./page-checks";

/** Wei in one 10^-8 ETH, the ledger's unit. */
const WEI_PER_UNIT = 10n ** 10n;
const CONFIRMATIONS = 2;

let node: AnvilNode;
let server: KassaServer;

// A Kassa server of its own, watching an anvil node of its own: ETH is real here, not the sandbox chain.
test.beforeAll(async () => {
  test.setTimeout(180_000);
  node = await startTestAnvil();
  server = await startKassaServer({
    ...onAnvil,
    env: {
      ...serverEnv(onAnvil.port, onAnvil.dataDir),
      KASSA_EVM_RPC_URL: node.url,
      KASSA_EVM_CONFIRMATIONS: String(CONFIRMATIONS),
    },
  });
});
test.afterAll(async () => {
  await server?.stop();
  await node?.stop();
});

test("a customer claims the refund of an ETH overpayment on a real node, on a phone, and sees it confirmed", async ({
  page,
}) => {
  test.setTimeout(150_000);
  const request = await playwrightRequest.newContext({ baseURL: onAnvil.baseURL });
  const shop = "Refunds on chain";
  const merchant = await createMerchant(shop, onAnvil.dataDir);
  const client = signedClient(request, merchant);
  const foreignId = `refund-anvil-${Date.now()}`;
  const { invoice, address, due } = await ltcInvoice(client, request, {
    foreignId,
    title: "Desk lamp",
    customer: { first_name: "Ada", last_name: "Lovelace", email: "ada@example.com" },
    currency: "ETH",
  });

  // The customer pays twice what is due from their own wallet; the node confirms it.
  await payEth(node.url, { to: address, value: 2n * due * WEI_PER_UNIT });
  await mineBlocks(node.url, CONFIRMATIONS);
  const status = async () =>
    (await (await client.send("POST", "/transactions/info", JSON.stringify({ id: invoice.id }))).json())
      .status;
  await expect.poll(status, { timeout: 30_000 }).toBe("confirmed");

  // The operator has funded the hot wallet the payout leaves from.
  const wallets = (await cliOn(onAnvil.dataDir, "chain", "wallets")) as { evm: { address: string } };
  const hotWallet = wallets.evm.address.toLowerCase();
  await payEth(node.url, { to: hotWallet, value: 10n ** 18n });

  // The merchant offers the excess back, the network fee on the shop: the customer gets all of it.
  const offered = await client.post(`/invoices/${foreignId}/refunds/create`, { amount: "excess" });
  expect(offered.status()).toBe(201);
  const refund = (await offered.json()).data as { id: number; claim_url: string; amount: string };
  expect(units(refund.amount)).toBe(due);

  // The customer, on a phone, gives an address of their own and confirms.
  const refundTo = privateKeyToAccount(generatePrivateKey()).address;
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto(`${onAnvil.baseURL}${new URL(refund.claim_url).pathname}`);
  await expect(page.getByRole("heading", { level: 1, name: `Your refund from ${shop}` })).toBeVisible();
  await expect(page.getByText(`${shown(due)} ETH`).first()).toBeVisible();
  await page.getByRole("radio", { name: /\(ETH\)/ }).check();
  await page.getByLabel("Your ETH address").fill(refundTo);
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("heading", { name: "3. Check and confirm" })).toBeVisible();
  await expect(page.getByText(refundTo).first()).toBeVisible();
  await page.getByRole("button", { name: "Confirm and send the refund" }).click();

  // The hot wallet signs and the node mines it: the page says it was sent, then, once the node has
  // the confirmations, that it is done, with the transaction's id; the page follows by itself.
  await expect(page.getByText(`Sent: ${shown(due)} ETH, waiting for confirmations`)).toBeVisible({
    timeout: 30_000,
  });
  await mineBlocks(node.url, CONFIRMATIONS);
  const done = page.getByText(`Refund sent: ${shown(due)} ETH`);
  await expect(done).toBeVisible({ timeout: 30_000 });
  await expectAccessible(page);
  await expectNoSidewaysScroll(page);
  await page.setViewportSize({ width: 1280, height: 900 });
  await expectAccessible(page);
  await expectNoSidewaysScroll(page);

  // On the chain, read from the node: one transaction from the hot wallet to the customer's address
  // carrying exactly the excess, and the address holds nothing else.
  const listed = (await (await client.post(`/invoices/${foreignId}/refunds/list`)).json()).data;
  expect(listed[0]).toMatchObject({
    id: refund.id,
    status: "claimed",
    claim: { currency: "ETH", address: refundTo },
    payout: { currency: "ETH", status: "confirmed" },
  });
  const txid = listed[0].payout.txid as Hash;
  await expect(page.getByText(txid)).toBeVisible();
  const sent = await node.publicClient.getTransaction({ hash: txid });
  expect(sent.from.toLowerCase()).toBe(hotWallet);
  expect(sent.to?.toLowerCase()).toBe(refundTo.toLowerCase());
  expect(sent.value).toBe(due * WEI_PER_UNIT);
  expect(await node.publicClient.getBalance({ address: refundTo })).toBe(due * WEI_PER_UNIT);
  await request.dispose();
});
