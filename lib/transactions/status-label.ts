/**
 * Internal statuses as the dashboard shows them, where the internal word would mislead a merchant.
 * A withdrawal `sending` has been handed to the network: it can no longer be stopped, and it is
 * not confirmed yet (the API reports it as `not_confirmed`, like `processing`).
 */
const LABELS: Record<string, string> = {
  sending: "being sent",
};

export function statusLabel(status: string): string {
  return LABELS[status] ?? status;
}
