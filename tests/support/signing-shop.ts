import { createHmac, randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { POST as createKeyRoute } from "@/app/api/dashboard/api-keys/route";
import { POST as dashboardInvoiceRoute } from "@/app/api/dashboard/invoices/route";
import { requestContextStorage } from "@/lib/api/request-context";
import type { RouteHandler } from "@/lib/api/route-handler";
import { setCallbackUrl } from "@/lib/callbacks/set-callback-url";
import type { SecretBox } from "@/lib/crypto/secret-box";
import { invoices, users } from "@/lib/db/schema";
import { fixInvoiceCurrency } from "@/lib/invoices/fix-invoice-currency";
import { createMerchant, hashPassword } from "@/lib/merchants/create-merchant";
import type { Role } from "@/lib/team/permissions";
import { callRoute, signInCookie } from "./dashboard-routes";
import type { TestDatabase } from "./database";
import { settings as invoiceSettings, testKeys } from "./invoices";
import type { Received } from "./receiver";

/**
 * A merchant for the callback-signing tests, driven through the real route handlers: its default
 * key (full scope, its designated callback key from the start), signed /api/v2 calls with any key
 * pair, and dashboard calls as a member of any role. Needs NEXTAUTH_SECRET and KASSA_MASTER_KEY set
 * and the database registered (the routes read the process's runtime).
 */

export const PASSWORD = "long password 1";

export type Pair = { id: number; key: string; secret: string };

/** The HMAC a receiver computes with `secret`, written here on its own (not lib/api/signature.ts). */
export const hmac = (secret: string, body: Buffer | string) =>
  createHmac("sha512", secret).update(body).digest("hex");

/** Asserts a received callback is signed by `pair` (and, during a roll's overlap, also by `next`). */
export function expectSignedBy(request: Received, pair: Pair, next?: Pair) {
  expect(request.headers["x-processing-key"]).toBe(pair.key);
  expect(request.headers["x-processing-signature"]).toBe(hmac(pair.secret, request.body));
  expect(request.headers["x-processing-next-key"]).toBe(next?.key);
  expect(request.headers["x-processing-next-signature"]).toBe(next && hmac(next.secret, request.body));
}

export async function makeSigningShop(
  database: TestDatabase,
  box: SecretBox,
  input: { name: string; callbackUrl: string },
) {
  const created = await createMerchant(database.db, box, {
    name: input.name,
    email: `owner@${input.name.toLowerCase()}.test`,
    password: PASSWORD,
  });
  const { merchantId } = created;
  await setCallbackUrl(database.db, { merchantId, url: input.callbackUrl, mode: "sandbox" });
  // Each member signs in and confirms once, as the dashboard's dialog does: the step-up window lets
  // their sensitive calls reach the routes' own checks.
  const { POST: stepUp } = await import("@/app/api/dashboard/step-up/route");
  const cookieOf = async (userId: number) => {
    const cookie = await signInCookie(database.db, userId);
    const confirmed = await callRoute(stepUp, { path: "step-up", cookie, body: { password: PASSWORD } });
    expect(confirmed.status).toBe(200);
    return cookie;
  };
  const cookies = new Map<Role, string>([["owner", await cookieOf(created.userId)]]);
  const passwordHash = await hashPassword(PASSWORD);
  for (const role of ["admin", "developer"] as const) {
    const email = `${role}@${input.name.toLowerCase()}.test`;
    const [user] = await database.db
      .insert(users)
      .values({ merchantId, email, passwordHash, role })
      .returning({ id: users.id });
    cookies.set(role, await cookieOf(user!.id));
  }

  /** A dashboard route called by a signed-in `role`, from the dashboard's own origin. */
  async function dashboard(
    handler: RouteHandler,
    input: { role?: Role; method?: string; body?: unknown; id?: number },
  ): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await handler(
      new Request("http://kassa.test/api/dashboard/x", {
        method: input.method ?? "POST",
        headers: {
          host: "kassa.test",
          origin: "http://kassa.test",
          cookie: cookies.get(input.role ?? "owner")!,
          "content-type": "application/json",
        },
        body: input.body === undefined ? undefined : JSON.stringify(input.body),
      }),
      { params: Promise.resolve({ id: String(input.id ?? "") }) },
    );
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  /** A signed /api/v2 call with `pair`. */
  async function signed(
    route: RouteHandler,
    pair: Pair,
    body: unknown,
  ): Promise<{ status: number; data: Record<string, unknown> }> {
    const raw = JSON.stringify(body);
    const response = await requestContextStorage().run(
      { requestId: "test", peerAddress: "203.0.113.5" },
      () =>
        route(
          new Request("http://kassa.test/api/v2/x", {
            method: "POST",
            headers: {
              "content-type": "application/json",
              "x-processing-key": pair.key,
              "x-processing-signature": hmac(pair.secret, raw),
            },
            body: raw,
          }),
          { params: Promise.resolve({}) },
        ),
    );
    const json = (await response.json()) as { data?: Record<string, unknown> };
    return { status: response.status, data: json.data ?? (json as Record<string, unknown>) };
  }

  /** A new key created in the dashboard by the owner (full scope) or a developer (no money scope). */
  async function createKey(role: "owner" | "developer", label: string): Promise<Pair> {
    const answer = await dashboard(createKeyRoute, {
      role,
      body: { label, can_move_money: role === "owner" },
    });
    expect(answer.status).toBe(201);
    const body = answer.body as { id: number; api_key: string; api_secret: string };
    return { id: body.id, key: body.api_key, secret: body.api_secret };
  }

  /** An invoice created by the owner on the dashboard's invoice form, and its first callback queued. */
  async function dashboardInvoice(): Promise<number> {
    const answer = await dashboard(dashboardInvoiceRoute, { body: invoiceBody() });
    expect(answer.status).toBe(201);
    const id = answer.body.id as number;
    await fixCurrency(database, id);
    return id;
  }

  return {
    merchantId,
    ownerId: created.userId,
    defaultKey: { id: created.apiKey.id, key: created.apiKey.key, secret: created.apiKey.secret },
    dashboard,
    signed,
    createKey,
    dashboardInvoice,
  };
}

export type SigningShop = Awaited<ReturnType<typeof makeSigningShop>>;

/** The checkout's step that queues an invoice's first callback (`invoice.pending`): the customer picks BTC. */
export async function fixCurrency(database: TestDatabase, invoiceId: number) {
  const [invoice] = await database.db
    .select({ token: invoices.token })
    .from(invoices)
    .where(eq(invoices.transactionId, invoiceId));
  await fixInvoiceCurrency(database.db, {
    token: invoice!.token,
    currency: "BTC",
    settings: invoiceSettings,
    keys: testKeys,
  });
}

let counter = 0;

/** An invoice request body, without a timer or a currency: the callback comes when the customer picks one. */
export function invoiceBody() {
  counter++;
  return {
    title: `Order ${counter}`,
    foreign_id: `sig-${counter}-${randomBytes(4).toString("hex")}`,
    end_user_reference: `cust-${counter}`,
    currency: "EUR",
    amount: "100",
    timer: false,
    url_success: "https://shop.example/paid",
    url_failed: "https://shop.example/failed",
    email_user: "buyer@example.com",
    sender_type: "natural",
    sender_data: { first_name: "Ada", last_name: "Lovelace", date_of_birth: "1990-12-10" },
  };
}
