/** The kinds of transaction and their internal statuses, as the explorer filters them (client and server). */
export const TRANSACTION_TYPES = [
  "invoice",
  "deposit",
  "withdrawal",
  "withdrawal_exchange",
  "withdrawal_instant",
  "exchange",
];
export const TRANSACTION_STATUSES = [
  "created",
  "pending",
  "processing",
  "sending",
  "confirmed",
  "failed",
  "cancelled",
  "error",
  "rejected",
  "declined",
  "below_minimum",
];
