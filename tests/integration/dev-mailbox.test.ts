import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { finishSignUp } from "@/lib/auth/finish-sign-up";
import { requestSignUp } from "@/lib/auth/request-sign-up";
import { loadConfig } from "@/lib/config";
import { emails, users } from "@/lib/db/schema";
import { listDevMailbox } from "@/lib/mail/list-dev-mailbox";
import { mailSettingsFor } from "@/lib/mail/mail-settings-for";
import { openDevMail } from "@/lib/mail/open-dev-mail";
import { REDACTED_TOKEN } from "@/lib/mail/queue-email";
import { sendQueuedEmail } from "@/lib/mail/send-email";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";

const BASE = "http://localhost:3000";

/**
 * A sandbox without SMTP: the sign-up link is printed to the log with the dev mailbox's address,
 * the message stays redacted in clear and sealed beside it, and the dev mailbox opens the sealed
 * copy to a link that finishes the sign-up.
 */
describe(`the dev mailbox of a sandbox without SMTP, on ${testDriver}`, () => {
  let database: TestDatabase;
  const sandbox = loadConfig({
    NODE_ENV: "test",
    KASSA_MODE: "sandbox",
    KASSA_MASTER_KEY: randomBytes(32).toString("hex"),
    PORT: "3456",
  });

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.drop();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("prints the link and the mailbox's address, keeps the live link only sealed, and opens it in the mailbox", async () => {
    const email = `first-${randomBytes(4).toString("hex")}@example.com`;
    await requestSignUp(database.db, {
      name: "First Shop",
      email,
      password: "a long enough password",
      ip: "198.51.100.7",
      baseUrl: BASE,
      box: database.box,
    });
    const [queued] = await database.db.select().from(emails).where(eq(emails.recipient, email));
    const printed: string[] = [];
    vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => {
      printed.push(args.join(" "));
    });
    await sendQueuedEmail(database.db, queued!.id, mailSettingsFor(sandbox, database.box));
    const log = printed.join("\n");
    expect(log).toContain("read it in a browser too: http://localhost:3456/dev/mailbox");
    const token = /#token=([A-Za-z0-9_-]+)/.exec(log)?.[1];
    expect(token).toBeDefined();

    // At rest: redacted in clear, the live link only inside the sealed copy.
    const [kept] = await database.db.select().from(emails).where(eq(emails.id, queued!.id));
    expect(kept!.status).toBe("stored");
    expect(kept!.body).toContain(`/signup/finish#token=${REDACTED_TOKEN}`);
    expect(kept!.bodySealed).not.toBeNull();
    expect(kept!.bodySealed).not.toContain(token);
    expect(kept!.body).not.toContain(token);

    // The mailbox lists the message and opens it to the live link.
    const listed = await listDevMailbox(database.db);
    expect(listed[0]).toMatchObject({ id: queued!.id, recipient: email, subject: queued!.subject });
    const opened = await openDevMail(database.db, database.box, queued!.id);
    expect(opened!.text).toContain(`${BASE}/signup/finish#token=${token}`);
    expect(await openDevMail(database.db, database.box, queued!.id + 1000)).toBeNull();

    // The link works: the account exists once it is followed.
    await finishSignUp(database.db, database.box, { token: token! });
    const [user] = await database.db.select().from(users).where(eq(users.email, email));
    expect(user).toBeDefined();
  });

  it("with a mail server, keeps no mailbox: nothing printed, no mailbox named", () => {
    const withSmtp = loadConfig({
      NODE_ENV: "test",
      KASSA_MODE: "sandbox",
      KASSA_MASTER_KEY: randomBytes(32).toString("hex"),
      SMTP_URL: "smtp://127.0.0.1:2525",
    });
    expect(mailSettingsFor(withSmtp, database.box)).toMatchObject({
      isPrintedWithoutSmtp: false,
      mailboxUrl: undefined,
    });
  });
});
