import { asc } from "drizzle-orm";
import { withSession } from "@/lib/api/with-session";
import { rates } from "@/lib/db/schema";
import { formatAmount } from "@/lib/money";
import { setUsdPrice } from "@/lib/rates/rates";
import { sandboxRateRequest } from "@/lib/schemas/dashboard";

export const GET = withSession({ permission: "sandbox.use" }, async ({ db }) => ({
  rates: (await db.select().from(rates).orderBy(asc(rates.currency))).map((r) => ({
    currency: r.currency,
    usd_price: formatAmount(r.usdPrice),
    updated_at: r.updatedAt.toISOString(),
  })),
}));

/** Sandbox: sets a currency's USD price, which every later conversion uses (installation-wide). */
export const POST = withSession(
  { permission: "sandbox.use", isSandboxOnly: true, request: sandboxRateRequest },
  async ({ db, body }) => {
    await setUsdPrice(db, body.currency, body.usd_price);
    return { currency: body.currency, usd_price: formatAmount(body.usd_price) };
  },
);
