import { mnemonicToSeedSync } from "@scure/bip39";
import { deriveAccountKeys } from "@/lib/chain/account-keys";
import { mineSandboxBlocks } from "@/lib/chain/sandbox/mine-blocks";
import { sendSandboxPayment } from "@/lib/chain/sandbox/send-payment";
import type { Clock } from "@/lib/clock";
import { getCurrency } from "@/lib/currencies/registry";
import type { Db } from "@/lib/db/client";
import { paymentRateSettings } from "@/lib/deposits/payment-rate-settings";
import { jobHandlers } from "@/lib/host/job-handlers";
import { createInvoice, type InvoiceSettings } from "@/lib/invoices/create-invoice";
import { fixInvoiceCurrency } from "@/lib/invoices/fix-invoice-currency";
import { runDueJobs } from "@/lib/jobs/runner";
import { parseDecimal } from "@/lib/money";
import type { Pricing } from "@/lib/rates/pricing";
import { createInvoiceRequest } from "@/lib/schemas/invoices";

export const testSeed = mnemonicToSeedSync(
  "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about",
);
/** The test seed's account-level public keys: what web processes derive deposit addresses from. */
export const testKeys = deriveAccountKeys(testSeed);
/** The installation's pricing as the configuration defaults it: a 0.5% spread, rates held as long as a timer. */
export const pricing: Pricing = { spreadPpm: 5_000, rateLockSeconds: 900 };
export const settings: InvoiceSettings = { timerSeconds: 900, pricing, callbackMode: "sandbox" };
export const handlers = jobHandlers({
  pricing,
  mail: { smtpUrl: undefined, from: "Kassa <test@kassa.test>" },
});

let counter = 0;

/** An invoice request as a merchant would send it, through the real schema. */
export function invoiceRequest(overrides: Record<string, unknown> = {}) {
  counter++;
  return createInvoiceRequest.parse({
    end_user_reference: `cust-${counter}`,
    timer: true,
    title: `Order ${counter}`,
    foreign_id: `order-${counter}-${Math.random().toString(36).slice(2)}`,
    currency: "EUR",
    amount: "100",
    url_success: "https://shop.example/paid",
    url_failed: "https://shop.example/failed",
    email_user: "buyer@example.com",
    sender_type: "natural",
    sender_data: { first_name: "Ada", last_name: "Lovelace", date_of_birth: "1990-12-10" },
    ...overrides,
  });
}

export async function createFixedInvoice(
  db: Db,
  merchantId: number,
  payCurrency: string,
  overrides: Record<string, unknown> = {},
  invoiceSettings: InvoiceSettings = settings,
) {
  const created = await createInvoice(db, {
    merchantId,
    request: invoiceRequest(overrides),
    settings: invoiceSettings,
  });
  return fixInvoiceCurrency(db, {
    token: created.invoice.token,
    currency: payCurrency,
    settings: invoiceSettings,
    keys: testKeys,
  });
}

/**
 * A customer pays `amount` to the invoice's address; the payment is seen, not yet confirmed (at
 * the `clock`'s time when given, so a rate lock the test let run out is judged expired).
 */
export function pay(
  db: Db,
  invoice: { address: { address: string; tag: string; currency: string } | null },
  amount: bigint | string,
  clock?: Clock,
) {
  const address = invoice.address!;
  return sendSandboxPayment(db, {
    currency: address.currency,
    address: address.address,
    tag: address.tag || undefined,
    amount: typeof amount === "string" ? parseDecimal(amount) : amount,
    rateSettings: clock ? { ...paymentRateSettings(), clock } : undefined,
  });
}

/** Mines enough blocks for the currency's confirmations and runs the jobs that follow (at the `clock`'s time). */
export async function confirm(db: Db, currency: string, clock?: Clock): Promise<void> {
  await mineSandboxBlocks(db, { currency, count: getCurrency(currency).confirmations });
  await runDueJobs(db, handlers, { clock });
}

/** The default pricing with another spread (parts per million). */
export function pricingWith(spreadPpm: number): Pricing {
  return { ...pricing, spreadPpm };
}
