import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { generateSync } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/api-keys/create-api-key";
import { rollApiKey } from "@/lib/api-keys/roll-api-key";
import type { AuditSource } from "@/lib/audit/record-audit-entry";
import { finishSignUp } from "@/lib/auth/finish-sign-up";
import { requestPasswordReset } from "@/lib/auth/request-password-reset";
import { requestSignUp } from "@/lib/auth/request-sign-up";
import { enableTotp, newTotpSecret } from "@/lib/auth/totp";
import { loadHdSeed } from "@/lib/chain/hd-seed";
import { queryRows } from "@/lib/db/client";
import { emails, merchants, users } from "@/lib/db/schema";
import { creditSandboxBalance } from "@/lib/ledger/credit-sandbox-balance";
import { REDACTED_TOKEN } from "@/lib/mail/queue-email";
import { sendQueuedEmail } from "@/lib/mail/send-email";
import { completeOnboarding } from "@/lib/merchants/complete-onboarding";
import { createMerchant } from "@/lib/merchants/create-merchant";
import { parseDecimal } from "@/lib/money";
import { issueRefund } from "@/lib/refunds/issue-refund";
import { seedDemoMerchant } from "@/lib/seed/seed-demo";
import { type Inviter, inviteMember } from "@/lib/team/invite-member";
import { resendInvitation } from "@/lib/team/resend-invitation";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { confirm, createFixedInvoice, pay } from "../support/invoices";
import { linkToken, mailText } from "../support/mail-text";
import { startSmtpServer } from "../support/smtp";

const BASE = "https://pay.example.test";

/**
 * The forms a secret handed out could be written in: as given, and its bytes as hex and as
 * standard base64 (a base64url token), or without its dash (a recovery code) or prefix (`sk_`).
 */
function formsOf(secret: string): string[] {
  const forms = new Set([secret]);
  const bare = secret.replace(/^sk_/, "");
  forms.add(bare);
  if (/^[A-Za-z0-9_-]+$/.test(bare) && bare.length >= 16) {
    const bytes = Buffer.from(bare, "base64url");
    forms.add(bytes.toString("hex"));
    forms.add(bytes.toString("base64").replace(/=+$/, ""));
  }
  if (/^[0-9a-f]{5}-[0-9a-f]{5}$/.test(secret)) forms.add(secret.replace("-", ""));
  return [...forms];
}

/**
 * Every flow that hands out a token or a secret, then every column of every table (as the
 * database lists them) read as text: none of them may hold one of those secrets in a usable form.
 * Stored hashes (auth_tokens, recovery codes) and sealed values (API secrets, TOTP secrets, mail
 * with a live link, the HD seed) are fine; the plain text is not. The invoice's checkout token is
 * not among them: it is the public payment page's address, handed to the customer and shown again
 * by transactions/info (`url`), so it is kept as it is.
 */
describe(`no live secret at rest in plain text on ${testDriver}`, () => {
  let database: TestDatabase;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  const handedOut = new Map<string, string>();
  const hand = (what: string, secret: string) => {
    expect(secret.length).toBeGreaterThanOrEqual(8);
    handedOut.set(what, secret);
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    smtp = await startSmtpServer();
  });
  afterAll(async () => {
    await smtp.close();
    await database.drop();
  });

  const mailSettings = () => ({
    smtpUrl: `smtp://127.0.0.1:${smtp.port}`,
    from: "k@kassa.test",
    box: database.box,
  });
  async function deliver(): Promise<void> {
    const queued = await database.db
      .select({ id: emails.id })
      .from(emails)
      .where(eq(emails.status, "queued"));
    for (const { id } of queued) await sendQueuedEmail(database.db, id, mailSettings());
  }
  const lastTokenTo = (address: string) =>
    linkToken(smtp.received.filter((mail) => mail.to === address).at(-1)!);

  /** Each column of each table of the database's own schemas, from information_schema. */
  async function columns(): Promise<Map<string, string[]>> {
    const rows = await queryRows<{ table_schema: string; table_name: string; column_name: string }>(
      database.db,
      sql`select c.table_schema, c.table_name, c.column_name
            from information_schema.columns c
            join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
           where t.table_type = 'BASE TABLE' and c.table_schema not in ('pg_catalog', 'information_schema')
           order by 1, 2, c.ordinal_position`,
    );
    const tables = new Map<string, string[]>();
    for (const row of rows) {
      const name = `"${row.table_schema}"."${row.table_name}"`;
      tables.set(name, [...(tables.get(name) ?? []), row.column_name]);
    }
    return tables;
  }

  /** Every value of every column as text, each with where it was found. */
  async function everyValue(): Promise<{ where: string; text: string }[]> {
    const values: { where: string; text: string }[] = [];
    for (const [table, names] of await columns()) {
      const list = names.map((name, i) => `"${name}"::text as c${i}`).join(", ");
      const rows = await queryRows<Record<string, string | null>>(
        database.db,
        sql.raw(`select ${list} from ${table}`),
      );
      for (const row of rows)
        names.forEach((name, i) => {
          const text = row[`c${i}`];
          if (text) values.push({ where: `${table}.${name}`, text });
        });
    }
    return values;
  }

  async function expectNoSecretAtRest(): Promise<void> {
    const values = await everyValue();
    // The scan reads real rows: it finds what is meant to be there in plain text.
    expect(values.some((v) => v.where === '"public"."users".email' && v.text === "signup@example.com")).toBe(
      true,
    );
    const found: string[] = [];
    for (const [what, secret] of handedOut)
      for (const form of formsOf(secret))
        for (const value of values) if (value.text.includes(form)) found.push(`${what} in ${value.where}`);
    expect(found).toEqual([]);
  }

  it("finds every table of the schema", async () => {
    const tables = await columns();
    expect(tables.size).toBeGreaterThan(30);
    expect(tables.get('"public"."emails"')).toContain("body_sealed");
  });

  it("keeps no token, API secret, TOTP secret, recovery code or seed in plain text, before or after mail is sent", async () => {
    // The demo merchant of a first sandbox start: its password and API secret (printed, and kept in
    // an owner-only file of the data directory, not in the database).
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "kassa-secrets-"));
    const demo = await seedDemoMerchant(database.db, database.box, dataDir);
    fs.rmSync(dataDir, { recursive: true, force: true });
    hand("demo password", demo!.password);
    hand("demo API secret", demo!.api_secret);

    // Sign-up by e-mail link, then onboarding's first API key.
    await requestSignUp(database.db, {
      name: "Signup Shop",
      email: "signup@example.com",
      password: "long password 1",
      ip: "198.51.100.1",
      baseUrl: BASE,
      box: database.box,
    });
    await deliver();
    hand("sign-up link", lastTokenTo("signup@example.com"));
    const { merchantId } = await finishSignUp(database.db, database.box, {
      token: handedOut.get("sign-up link")!,
    });
    const [user] = await database.db.select().from(users).where(eq(users.merchantId, merchantId));
    const onboarded = await completeOnboarding(database.db, database.box, {
      merchantId,
      name: "Signup Shop",
      mode: "sandbox",
      userId: user!.id,
      mayMoveMoney: true,
      audit: { actor: { kind: "user", userId: user!.id, email: "signup@example.com" } },
    });
    hand("onboarding's API secret", onboarded.secret);

    // A merchant made by the operator (the CLI, the demo seed), and its API key.
    const operator = await createMerchant(database.db, database.box, {
      name: "Operated",
      email: "ops@example.com",
      password: "long password 2",
    });
    hand("operator merchant's API secret", operator.apiKey.secret);

    // Password reset: a link queued (sealed), then sent.
    await requestPasswordReset(database.db, {
      email: "signup@example.com",
      ip: "198.51.100.2",
      baseUrl: BASE,
      box: database.box,
    });
    const [queued] = await database.db.select().from(emails).where(eq(emails.kind, "password_reset"));
    expect(queued!.bodySealed).toMatch(/^v1\./);
    expect(queued!.body).toContain(`${BASE}/reset-password#token=${REDACTED_TOKEN}`);
    await deliver();
    hand("password reset link", lastTokenTo("signup@example.com"));
    expect(mailText(smtp.received.at(-1)!)).toContain(`#token=${handedOut.get("password reset link")}`);

    // A second reset left queued: sealed while it waits, not in plain text.
    await requestPasswordReset(database.db, {
      email: "ops@example.com",
      ip: "198.51.100.3",
      baseUrl: BASE,
      box: database.box,
    });
    const [waiting] = await database.db.select().from(emails).where(eq(emails.recipient, "ops@example.com"));
    const waitingToken = /#token=([A-Za-z0-9_-]+)/.exec(
      database.box.open(waiting!.bodySealed!, `emails:body:${waiting!.id}`),
    )![1]!;
    hand("queued reset link", waitingToken);
    await expectNoSecretAtRest();
    await deliver();
    expect(lastTokenTo("ops@example.com")).toBe(waitingToken);

    // Invitations, and an invitation sent again.
    await database.db.update(merchants).set({ onboardedAt: new Date() }).where(eq(merchants.id, merchantId));
    const inviter: Inviter = { userId: user!.id, email: user!.email, role: "owner" };
    const audit: AuditSource = {
      actor: { kind: "user", userId: user!.id, email: user!.email },
      address: "198.51.100.4",
    };
    for (const [email, role] of [
      ["admin@example.com", "admin"],
      ["finance@example.com", "finance"],
      ["developer@example.com", "developer"],
      ["viewer@example.com", "viewer"],
    ] as const) {
      await inviteMember(database.db, {
        merchantId,
        inviter,
        email,
        role,
        baseUrl: BASE,
        box: database.box,
        audit,
      });
      await deliver();
      hand(`invitation of ${role}`, lastTokenTo(email));
    }
    const [invitation] = await queryRows<{ token_hash: string }>(
      database.db,
      sql`select token_hash from auth_tokens where purpose = 'invitation' and email = 'viewer@example.com'`,
    );
    await resendInvitation(database.db, {
      merchantId,
      id: invitation!.token_hash,
      inviter,
      baseUrl: BASE,
      box: database.box,
      audit,
    });
    await deliver();
    hand("invitation sent again", lastTokenTo("viewer@example.com"));

    // API keys: created, then rolled.
    const created = await createApiKey(database.db, database.box, {
      merchantId,
      label: "Shop",
      canMoveMoney: true,
    });
    hand("new API secret", created.secret);
    const rolled = await rollApiKey(database.db, database.box, {
      merchantId,
      keyId: created.id,
      overlapSeconds: 3600,
      actor: audit.actor,
      address: audit.address ?? "198.51.100.4",
      createdBy: user!.id,
      mayMoveMoney: true,
    });
    hand("rolled API secret", rolled.secret);

    // A refund offered to an invoice's customer: the claim link e-mailed to them.
    await creditSandboxBalance(database.db, {
      merchantId,
      currency: "EUR",
      amount: parseDecimal("1000"),
      isSandbox: true,
    });
    const invoice = await createFixedInvoice(database.db, merchantId, "BTC", {
      timer: false,
      email_user: "refundee@example.com",
    });
    await pay(database.db, invoice, invoice.invoice.senderAmount! + 20_000n);
    await confirm(database.db, "BTC");
    const refund = await issueRefund(database.db, {
      merchantId,
      invoiceId: invoice.id,
      terms: { amount: { kind: "full" }, rateBasis: "payment", feePaidBy: "merchant" },
      actor: audit,
      box: database.box,
      mail: { baseUrl: BASE },
    });
    hand("refund link", refund.token);
    await expectNoSecretAtRest();
    await deliver();
    expect(mailText(smtp.received.filter((mail) => mail.to === "refundee@example.com").at(-1)!)).toContain(
      `${BASE}/refund/${refund.token}`,
    );

    // Two-factor sign-in: the app's secret, and the recovery codes.
    const totp = newTotpSecret(user!.email);
    hand("TOTP secret", totp.secret);
    const codes = await enableTotp(database.db, database.box, {
      userId: user!.id,
      secret: totp.secret,
      code: generateSync({ secret: totp.secret }),
    });
    for (const [i, code] of codes!.entries()) hand(`recovery code ${i + 1}`, code);

    // The HD wallet's seed, which spends every deposit address.
    hand("HD seed", Buffer.from(await loadHdSeed(database.db, database.box)).toString("hex"));

    await expectNoSecretAtRest();
    expect(handedOut.size).toBe(27);
  });

  it("keeps a link-bearing message without SMTP redacted, its sealed copy dropped: nobody will deliver it", async () => {
    await requestPasswordReset(database.db, {
      email: "ops@example.com",
      ip: "198.51.100.5",
      baseUrl: BASE,
      box: database.box,
    });
    const [message] = await database.db.select().from(emails).where(eq(emails.status, "queued"));
    // Without the master key a sealed message is not sent redacted: the job fails and is retried.
    await expect(
      sendQueuedEmail(database.db, message!.id, { smtpUrl: mailSettings().smtpUrl, from: "k@kassa.test" }),
    ).rejects.toThrow("master key");
    await sendQueuedEmail(database.db, message!.id, { smtpUrl: undefined, from: "k@kassa.test" });
    const [kept] = await database.db.select().from(emails).where(eq(emails.id, message!.id));
    expect(kept).toMatchObject({ status: "stored", bodySealed: null });
    expect(kept!.body).toContain(`/reset-password#token=${REDACTED_TOKEN}`);
  });
});
