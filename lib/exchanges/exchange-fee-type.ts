import "server-only";

import { getCurrency } from "@/lib/currencies/registry";

/** The public API's fee type for an exchange between two crypto currencies; `exchange` otherwise. */
const CRYPTO_TO_CRYPTO_FEE = "fee_crypto_exchange_to_crypto";

/**
 * The fee type an exchange of this pair reports (transactions/info `fees[].type`, the ledger's fee
 * kind): one rule for a fresh price and for a stored quote, so both name the same fee.
 */
export function exchangeFeeType(senderCurrency: string, receiverCurrency: string): string {
  const isCryptoToCrypto =
    getCurrency(senderCurrency).kind === "crypto" && getCurrency(receiverCurrency).kind === "crypto";
  return isCryptoToCrypto ? CRYPTO_TO_CRYPTO_FEE : "exchange";
}
