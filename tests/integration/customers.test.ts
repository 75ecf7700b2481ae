import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertCustomerIdentity } from "@/lib/customers/assert-customer-identity";
import { inTransaction } from "@/lib/db/transaction";
import { createMerchant } from "@/lib/merchants/create-merchant";
import type { Sender } from "@/lib/schemas/common";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";

describe(`customer identity per end_user_reference on ${testDriver}`, () => {
  let database: TestDatabase;
  let merchantId: number;
  let otherMerchantId: number;

  const check = (endUserReference: string, sender: Sender, merchant = merchantId) =>
    inTransaction(database.db, (tx) =>
      assertCustomerIdentity(tx, { merchantId: merchant, endUserReference, ...sender }),
    );

  const ada: Sender = {
    sender_type: "natural",
    sender_data: { first_name: "Ada", last_name: "Lovelace", date_of_birth: "1990-12-10" },
  };
  const acme: Sender = {
    sender_type: "legal",
    sender_data: { legal_name: "Acme GmbH", country_of_registration: "DEU" },
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    const password = "long enough password";
    merchantId = (
      await createMerchant(database.db, database.box, { name: "A", email: "a@example.com", password })
    ).merchantId;
    otherMerchantId = (
      await createMerchant(database.db, database.box, { name: "B", email: "b@example.com", password })
    ).merchantId;
  });
  afterAll(() => database.drop());

  it("records a new reference and accepts the same customer again", async () => {
    await check("cust-1", ada);
    await check("cust-1", ada);
    // A changed surname (marriage) is the same person.
    await check("cust-1", { ...ada, sender_data: { ...ada.sender_data, last_name: "King" } } as Sender);
  });

  it("refuses a different date of birth under the same reference", async () => {
    await expect(
      check("cust-1", { ...ada, sender_data: { ...ada.sender_data, date_of_birth: "1991-01-01" } } as Sender),
    ).rejects.toMatchObject({
      code: "validation_failed",
      fields: { "sender_data.date_of_birth": expect.stringMatching(/same customer/) },
    });
  });

  it("refuses a legal entity where a person was recorded", async () => {
    await expect(check("cust-1", acme)).rejects.toMatchObject({
      fields: { sender_type: expect.any(String) },
    });
  });

  it("refuses a different legal entity, but not a difference in case or spacing", async () => {
    await check("biz-1", acme);
    await check("biz-1", {
      ...acme,
      sender_data: { ...acme.sender_data, legal_name: " ACME  gmbh " },
    } as Sender);
    await expect(
      check("biz-1", { ...acme, sender_data: { ...acme.sender_data, legal_name: "Other Ltd" } } as Sender),
    ).rejects.toMatchObject({ fields: { "sender_data.legal_name": expect.any(String) } });
    await expect(
      check("biz-1", {
        ...acme,
        sender_data: { ...acme.sender_data, country_of_registration: "AUT" },
      } as Sender),
    ).rejects.toMatchObject({ fields: { "sender_data.country_of_registration": expect.any(String) } });
  });

  it("keeps references separate per merchant", async () => {
    await check("cust-1", acme, otherMerchantId);
  });
});
