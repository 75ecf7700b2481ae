import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import DevMailPage from "@/app/dev/mailbox/[id]/page";
import DevMailboxPage from "@/app/dev/mailbox/page";
import { requestPasswordReset } from "@/lib/auth/request-password-reset";
import { registerDatabase, unregisterDatabase } from "@/lib/db/client";
import { emails } from "@/lib/db/schema";
import { mailSettingsFor } from "@/lib/mail/mail-settings-for";
import { sendQueuedEmail } from "@/lib/mail/send-email";
import { createMerchant } from "@/lib/merchants/create-merchant";
import { getConfig, getSecretBox } from "@/lib/runtime";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";

/** What Next's notFound() throws: the page answers the 404 of an unknown path. */
const NOT_FOUND = { digest: "NEXT_HTTP_ERROR_FALLBACK;404" };

/**
 * A production installation without SMTP has no dev mailbox: both of its pages answer 404, even for
 * a message that exists, and the e-mail job prints nothing and keeps no sealed copy of a live link.
 */
describe(`no dev mailbox in production, on ${testDriver}`, () => {
  let database: TestDatabase;

  beforeAll(async () => {
    process.env.KASSA_MASTER_KEY = randomBytes(32).toString("hex");
    process.env.KASSA_MODE = "production";
    process.env.KASSA_PUBLIC_URL = "https://pay.example.test";
    delete process.env.SMTP_URL;
    database = await createTestDatabase();
    registerDatabase(database);
  });
  afterAll(async () => {
    unregisterDatabase();
    await database.drop();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("prints nothing, keeps no sealed copy, and both mailbox pages answer 404", async () => {
    const merchant = await createMerchant(database.db, getSecretBox(), {
      name: "Shop",
      email: `shop-${randomBytes(4).toString("hex")}@example.com`,
      password: "long password 1",
    });
    await requestPasswordReset(database.db, {
      email: merchant.email,
      ip: "198.51.100.5",
      baseUrl: "https://pay.example.test",
      box: getSecretBox(),
    });
    const [message] = await database.db.select().from(emails).where(eq(emails.recipient, merchant.email));
    expect(message!.bodySealed).not.toBeNull();

    const printed: unknown[] = [];
    vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => {
      printed.push(args);
    });
    await sendQueuedEmail(database.db, message!.id, mailSettingsFor(getConfig(), getSecretBox()));
    expect(printed).toEqual([]);
    const [kept] = await database.db.select().from(emails).where(eq(emails.id, message!.id));
    expect(kept).toMatchObject({ status: "stored", bodySealed: null });

    await expect(DevMailboxPage()).rejects.toMatchObject(NOT_FOUND);
    await expect(DevMailPage({ params: Promise.resolve({ id: String(message!.id) }) })).rejects.toMatchObject(
      NOT_FOUND,
    );
  });
});
