import "server-only";

/**
 * Who holds value. A merchant has one `balance` account per currency; the platform's accounts
 * hold the other side of every movement, so the whole ledger sums to zero per currency:
 * - platform:chain            value that came from or went to a blockchain (the outside world)
 * - platform:fees             deposit, withdrawal and exchange fees Kassa earned
 * - platform:exchange         Kassa's position from conversions between currencies
 * - platform:clearing         withdrawals accepted (debited from the merchant) and not yet sent
 * - platform:network_fees     network fees merchants were charged for payouts, less the gas really paid
 * - platform:sandbox_faucet   sandbox-only credits (never used in production mode)
 * - platform:owner            the operator's own money sent to the hot wallet (`cli chain fund`), so
 *                             what the chain holds reconciles with the ledger (docs/OPERATIONS.md)
 * - platform:below_minimum    confirmed deposits below the currency's minimum, held (not the merchant's
 *                             balance) until an operator returns or releases them
 * - platform:compliance_held  confirmed payments a compliance reviewer rejected, held until the operator
 *                             refunds them (docs/OPERATIONS.md, "Rejected payments")
 *
 * Accounts are created on first use by the posting function (kassa_post_journals, drizzle/0010).
 */
export type PlatformAccountKind =
  | "platform:chain"
  | "platform:fees"
  | "platform:exchange"
  | "platform:clearing"
  | "platform:network_fees"
  | "platform:sandbox_faucet"
  | "platform:owner"
  | "platform:below_minimum"
  | "platform:compliance_held";

export type AccountRef =
  | { merchantId: number; kind: "balance"; currency: string }
  | { merchantId: null; kind: PlatformAccountKind; currency: string };

export const merchantBalance = (merchantId: number, currency: string): AccountRef => ({
  merchantId,
  kind: "balance",
  currency,
});

export const platformAccount = (kind: PlatformAccountKind, currency: string): AccountRef => ({
  merchantId: null,
  kind,
  currency,
});
