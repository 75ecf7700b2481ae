import { withSession } from "@/lib/api/with-session";
import { formatAmount } from "@/lib/money";
import { listUsdPrices, setUsdPrice } from "@/lib/rates/rates";
import { sandboxRateRequest } from "@/lib/schemas/dashboard";

/** The prices this merchant converts at: their own where they set one, the installation's otherwise. */
export const GET = withSession(
  { permission: "sandbox.use", isSandboxOnly: true },
  async ({ db, session }) => ({
    rates: (await listUsdPrices(db, session.merchantId)).map((r) => ({
      currency: r.currency,
      usd_price: formatAmount(r.usdPrice),
      is_own: r.isOwn,
      updated_at: r.updatedAt.toISOString(),
    })),
  }),
);

/** Sandbox: sets a currency's USD price for this merchant's later conversions; other merchants keep theirs. */
export const POST = withSession(
  { permission: "sandbox.use", isSandboxOnly: true, request: sandboxRateRequest },
  async ({ db, session, body }) => {
    await setUsdPrice(db, { merchantId: session.merchantId, currency: body.currency, price: body.usd_price });
    return { currency: body.currency, usd_price: formatAmount(body.usd_price) };
  },
);
