import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/api-keys/create-api-key";
import { findActiveKey } from "@/lib/api-keys/find-active-key";
import { revokeApiKey } from "@/lib/api-keys/revoke-api-key";
import { apiKeys, users } from "@/lib/db/schema";
import { createMerchant } from "@/lib/merchants/create-merchant";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";

describe(`merchants and API keys on ${testDriver}`, () => {
  let database: TestDatabase;
  let shop: Awaited<ReturnType<typeof createMerchant>>;
  let other: Awaited<ReturnType<typeof createMerchant>>;

  beforeAll(async () => {
    database = await createTestDatabase();
    shop = await createMerchant(database.db, database.box, {
      name: "Shop",
      email: "Owner@Example.com",
      password: "correct horse battery",
    });
    other = await createMerchant(database.db, database.box, {
      name: "Other",
      email: "other@example.com",
      password: "correct horse battery",
    });
  });
  afterAll(() => database.drop());

  it("stores the API secret only sealed under the master key", async () => {
    const [row] = await database.db.select().from(apiKeys).where(eq(apiKeys.key, shop.apiKey.key));
    expect(row).toBeDefined();
    const stored = JSON.stringify(row);
    expect(stored).not.toContain(shop.apiKey.secret);
    expect(stored).not.toContain(shop.apiKey.secret.slice(3, 20));
    expect(row!.secretSealed).toMatch(/^v1\./);
    const found = await findActiveKey(database.db, database.box, shop.apiKey.key);
    expect(found).toEqual({
      id: row!.id,
      merchantId: shop.merchantId,
      secret: shop.apiKey.secret,
      allowedIps: null,
      // A merchant created by the operator gets a key with full rights.
      canMoveMoney: true,
    });
  });

  it("hashes the password with argon2id and keeps the e-mail case-insensitive unique", async () => {
    const [user] = await database.db.select().from(users).where(eq(users.id, shop.userId));
    expect(user!.passwordHash).toMatch(/^\$argon2id\$/);
    expect(user!.email).toBe("owner@example.com");
    await expect(
      createMerchant(database.db, database.box, {
        name: "Dup",
        email: "OWNER@example.com",
        password: "another password",
      }),
    ).rejects.toMatchObject({
      code: "validation_failed",
      fields: { email: "The email has already been taken." },
    });
  });

  it("allows several keys per merchant, each revocable on its own", async () => {
    const second = await createApiKey(database.db, database.box, {
      merchantId: shop.merchantId,
      label: "Payroll",
    });
    await revokeApiKey(database.db, { merchantId: shop.merchantId, key: second.key });
    expect(await findActiveKey(database.db, database.box, second.key)).toBeUndefined();
    expect(await findActiveKey(database.db, database.box, shop.apiKey.key)).toBeDefined();
  });

  it("does not let a merchant revoke another merchant's key", async () => {
    await expect(
      revokeApiKey(database.db, { merchantId: shop.merchantId, key: other.apiKey.key }),
    ).rejects.toMatchObject({
      code: "not_found",
    });
    expect(await findActiveKey(database.db, database.box, other.apiKey.key)).toBeDefined();
  });

  it("treats unknown keys like revoked ones", async () => {
    expect(await findActiveKey(database.db, database.box, "pk_does_not_exist")).toBeUndefined();
  });
});
