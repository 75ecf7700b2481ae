import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/api-keys/create-api-key";
import { revokeApiKey } from "@/lib/api-keys/revoke-api-key";
import { setCallbackUrl } from "@/lib/callbacks/set-callback-url";
import { insertMerchantRows } from "@/lib/merchants/create-merchant";
import { loadGettingStarted } from "@/lib/merchants/load-getting-started";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { createFixedInvoice, pay } from "../support/invoices";
import { createTestMerchant } from "../support/merchants";

/** The overview's checklist ticks from what the merchant really did, and from nobody else's doing. */
describe(`getting-started checklist on ${testDriver}`, () => {
  let database: TestDatabase;
  let merchantId: number;
  let otherId: number;

  beforeAll(async () => {
    database = await createTestDatabase();
    // A signed-up merchant starts with nothing: no key (onboarding makes one), no URL, no invoice.
    ({ merchantId } = await insertMerchantRows(database.db, database.box, {
      name: "Fresh",
      email: "fresh@example.com",
      passwordHash: "not used",
      isSignUp: true,
    }));
    otherId = await createTestMerchant(database, "Busy");
  });
  afterAll(() => database.drop());

  it("starts empty, and another merchant's key, URL, invoice and payment tick nothing", async () => {
    await setCallbackUrl(database.db, {
      merchantId: otherId,
      url: "http://127.0.0.1:9/hook",
      mode: "sandbox",
    });
    await pay(database.db, await createFixedInvoice(database.db, otherId, "BTC"), "0.001");
    expect(await loadGettingStarted(database.db, merchantId)).toEqual({
      hasApiKey: false,
      hasPayment: false,
      hasCallbackUrl: false,
      hasInvoice: false,
    });
    expect(await loadGettingStarted(database.db, otherId)).toEqual({
      hasApiKey: true,
      hasPayment: true,
      hasCallbackUrl: true,
      hasInvoice: true,
    });
  });

  it("ticks each step as the merchant takes it, and a revoked key still counts as created", async () => {
    const key = await createApiKey(database.db, database.box, { merchantId });
    await revokeApiKey(database.db, { merchantId, key: key.key });
    expect(await loadGettingStarted(database.db, merchantId)).toMatchObject({
      hasApiKey: true,
      hasInvoice: false,
    });

    await setCallbackUrl(database.db, { merchantId, url: "http://127.0.0.1:9/hook", mode: "sandbox" });
    expect(await loadGettingStarted(database.db, merchantId)).toMatchObject({ hasCallbackUrl: true });

    const invoice = await createFixedInvoice(database.db, merchantId, "BTC");
    expect(await loadGettingStarted(database.db, merchantId)).toMatchObject({
      hasInvoice: true,
      hasPayment: false,
    });

    await pay(database.db, invoice, "0.001");
    expect(await loadGettingStarted(database.db, merchantId)).toEqual({
      hasApiKey: true,
      hasPayment: true,
      hasCallbackUrl: true,
      hasInvoice: true,
    });

    // Clearing the URL unticks it: the checklist shows what is configured now.
    await setCallbackUrl(database.db, { merchantId, url: null, mode: "sandbox" });
    expect(await loadGettingStarted(database.db, merchantId)).toMatchObject({ hasCallbackUrl: false });
  });
});
