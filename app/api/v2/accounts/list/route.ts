import { withMerchantSignature } from "@/lib/api/with-merchant-signature";
import { listBalances } from "@/lib/ledger/list-balances";
import { formatAmount } from "@/lib/money";
import { accountsListEndpoint } from "@/lib/schemas/platform";

export const POST = withMerchantSignature(accountsListEndpoint, async ({ db, merchantId }) =>
  (await listBalances(db, merchantId)).map((b) => ({
    currency: b.currency,
    type: b.type,
    balance: formatAmount(b.balance),
  })),
);

/** Also accepted as GET with the same signed body, for clients that send reads as GET. */
export const GET = POST;
