/**
 * Internal statuses as the dashboard shows them, where the internal word would mislead a merchant.
 * A withdrawal `sending` has been handed to the network: it can no longer be stopped, and it is
 * not confirmed yet (the API reports it as `not_confirmed`, like `processing`).
 */
const LABELS: Record<string, string> = {
  sending: "being sent",
  // Less than the currency's minimum deposit: held in a platform account, not on the balance.
  below_minimum: "below minimum (held, not credited)",
};

export function statusLabel(status: string): string {
  return LABELS[status] ?? status;
}
