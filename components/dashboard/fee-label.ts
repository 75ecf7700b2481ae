/**
 * What a fee row is called on the dashboard: the API's fee types (transactions/info `fees[].type`)
 * are codes for programs, not words for people.
 */
const FEE_LABELS: Record<string, string> = {
  fee_crypto_deposit: "Deposit fee",
  deposit: "Deposit fee",
  exchange: "Exchange fee",
  fee_crypto_exchange_to_crypto: "Exchange fee",
  withdrawal: "Withdrawal fee",
  mining: "Network fee",
};

export function feeLabel(type: string): string {
  return FEE_LABELS[type] ?? "Fee";
}
