import "server-only";

/**
 * Who holds value. A merchant has one `balance` account per currency; the platform's accounts hold
 * the other side of every movement, so the whole ledger sums to zero per currency. Accounts are
 * created on first use by the posting function (kassa_post_journals, drizzle/0010).
 */
export type PlatformAccountKind =
  /** Value that came from or went to a blockchain (the outside world). */
  | "platform:chain"
  /** Deposit, withdrawal and exchange fees Kassa earned. */
  | "platform:fees"
  /** Kassa's position from conversions between currencies. */
  | "platform:exchange"
  /** Withdrawals accepted (debited from the merchant) and not yet sent. */
  | "platform:clearing"
  /** Network fees merchants were charged for payouts, less the gas really paid. */
  | "platform:network_fees"
  /** Sandbox-only credits (never used in production mode). */
  | "platform:sandbox_faucet"
  /** The operator's own money sent to the hot wallet (`cli chain fund`), so the chain reconciles. */
  | "platform:owner"
  /** Confirmed deposits below the currency's minimum, held until an operator returns or releases them. */
  | "platform:below_minimum"
  /** Payments a compliance reviewer rejected, held until refunded (docs/OPERATIONS.md, "Rejected payments"). */
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
