import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as passwordResetRoute } from "@/app/api/dashboard/password-reset/route";
import { requestContextStorage } from "@/lib/api/request-context";
import { isLoopbackOrigin } from "@/lib/auth/mail-link-base";
import { registerDatabase, unregisterDatabase } from "@/lib/db/client";
import { emails } from "@/lib/db/schema";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { createTestMerchant } from "../support/merchants";

/**
 * A sandbox without KASSA_PUBLIC_URL builds e-mailed links from the request's Host, which the client
 * chooses: only a Host that names this machine may be used, so nobody can have a victim's reset link
 * point at their own site.
 */
describe(`links in sign-in e-mails on a sandbox without KASSA_PUBLIC_URL, on ${testDriver}`, () => {
  let database: TestDatabase;

  beforeAll(async () => {
    process.env.KASSA_MASTER_KEY = randomBytes(32).toString("hex");
    process.env.KASSA_MODE = "sandbox";
    delete process.env.KASSA_PUBLIC_URL;
    database = await createTestDatabase();
    registerDatabase(database);
    await createTestMerchant(database, "Forgetful");
  });

  afterAll(async () => {
    unregisterDatabase();
    await database.drop();
  });

  /** The public password-reset route, from the dashboard's own origin at `host`. */
  async function askReset(host: string) {
    const response = await requestContextStorage().run({ requestId: "test", peerAddress: "127.0.0.1" }, () =>
      passwordResetRoute(
        new Request(`http://${host}/api/dashboard/password-reset`, {
          method: "POST",
          headers: { host, origin: `http://${host}`, "content-type": "application/json" },
          body: JSON.stringify({ email: "forgetful@example.com" }),
        }),
        { params: Promise.resolve({}) },
      ),
    );
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  const resetMails = () =>
    database.db.select({ body: emails.body }).from(emails).where(eq(emails.kind, "password_reset"));

  it("refuses a Host that is not this machine with a 400 naming the setting, and mails nothing", async () => {
    for (const host of ["evil.example", "evil.example:3000", "192.168.1.20:3000", "localhost.evil.example"]) {
      const answer = await askReset(host);
      expect([host, answer.status]).toEqual([host, 400]);
      expect(answer.body.error).toContain("KASSA_PUBLIC_URL");
    }
    expect(await resetMails()).toEqual([]);
  });

  it("links to the request's own origin when it names this machine", async () => {
    expect(await askReset("localhost:3000")).toEqual({ status: 200, body: { sent: true } });
    const [mail] = await resetMails();
    expect(mail!.body).toContain("http://localhost:3000/reset-password#token=");
  });

  it("knows loopback origins from others", () => {
    const loopback = [
      "http://localhost:3000",
      "http://app.localhost",
      "http://127.0.0.1",
      "http://127.9.9.9:1",
      "http://[::1]:3000",
      "http://[::ffff:127.0.0.1]",
    ];
    const others = [
      "http://evil.example",
      "http://localhost.evil.example",
      "http://10.0.0.1",
      "http://[::2]",
      "http://0.0.0.0",
      "not a url",
    ];
    expect(loopback.filter((origin) => !isLoopbackOrigin(origin))).toEqual([]);
    expect(others.filter(isLoopbackOrigin)).toEqual([]);
  });
});
