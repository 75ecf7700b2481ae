import "server-only";

/**
 * The allowed status transitions per kind of transaction (DESIGN.md section 6). Every status
 * change goes through transitionStatus(), so an impossible transition is an error, never a silent
 * overwrite. Internal statuses are richer than the wire ones; lib/transactions/wire-status.ts maps them.
 */
export const TRANSITIONS = {
  invoice: {
    // created: waiting for the customer to choose a currency (or for the checkout to open)
    created: ["pending", "cancelled", "failed"],
    // pending: currency, rate and address fixed; waiting for a payment
    pending: ["processing", "cancelled", "failed"],
    // processing: a payment is seen and not yet confirmed; a partial-pay invoice returns to pending;
    // the merchant may cancel it (the public API allows it), the payment then credited as late
    processing: ["confirmed", "failed", "pending", "cancelled"],
    confirmed: [],
    failed: [],
    cancelled: [],
  },
  deposit: {
    // failed: a reorganisation removed the payment's block before it was confirmed
    // verifying: confirmed, but scored at or above the merchant's review threshold (lib/compliance):
    // held until a member releases it (confirmed, credited) or rejects it (rejected, funds held)
    processing: ["confirmed", "failed", "verifying"],
    verifying: ["confirmed", "rejected"],
    rejected: [],
    // below_minimum: less than the currency's minimum deposit; held, never credited to the merchant
    // (lib/deposits/hold-below-minimum.ts); failed if a reorganisation removes it before it confirms
    below_minimum: ["failed"],
    failed: [],
    confirmed: [],
  },
  // withdrawal, withdrawal_exchange and withdrawal_instant: accepted with the balance debited;
  // `error` (the network refused it), `rejected` (an operator did) and `declined` (an approver did,
  // or nobody approved it in time) return the funds.
  withdrawal: {
    // pending: over a merchant's withdrawal limit, the funds reserved; an approver moves it on, or
    // declines it (or its approval time runs out) and the funds return
    pending: ["processing", "declined"],
    // processing: accepted, not handed to the network yet; an operator may still reject it
    processing: ["sending", "rejected"],
    // sending: claimed for the network (committed before the call), so it can no longer be
    // rejected: it ends confirmed, or `error` only when the network refused it
    sending: ["confirmed", "error"],
    confirmed: [],
    error: [],
    rejected: [],
    declined: [],
  },
  // exchange: accepted with the sender balance debited; the job credits the receiver balance and
  // confirms it (lib/exchanges/settle-exchange.ts). Amounts are fixed, so nothing can fail after that.
  exchange: {
    processing: ["confirmed"],
    confirmed: [],
  },
} as const satisfies Record<string, Record<string, readonly string[]>>;

export type TransactionKind = keyof typeof TRANSITIONS;
export type StatusOf<K extends TransactionKind> = keyof (typeof TRANSITIONS)[K] & string;
export type InvoiceStatus = StatusOf<"invoice">;

/** Whether a transition table (each status: the statuses it may go to) lets `from` go to `to`. */
export function isAllowedMove(table: Record<string, readonly string[]>, from: string, to: string): boolean {
  return table[from]?.includes(to) ?? false;
}

export function canTransition<K extends TransactionKind>(kind: K, from: string, to: string): boolean {
  return isAllowedMove(TRANSITIONS[kind], from, to);
}

/** The kind whose transition table a transaction's type follows. */
export const KIND_OF_TYPE = {
  invoice: "invoice",
  deposit: "deposit",
  withdrawal: "withdrawal",
  withdrawal_exchange: "withdrawal",
  withdrawal_instant: "withdrawal",
  exchange: "exchange",
} as const satisfies Record<string, TransactionKind>;
export type TransactionType = keyof typeof KIND_OF_TYPE;

/** The statuses a merchant hears of by callback, per kind (lib/callbacks/queue-callback.ts). */
export const CALLBACK_STATUSES: { [K in TransactionKind]: readonly StatusOf<K>[] } = {
  invoice: ["pending", "processing", "confirmed", "failed", "cancelled"],
  // below_minimum: only for merchants who turned that callback on (lib/deposits/announce-below-minimum.ts)
  deposit: ["processing", "confirmed", "below_minimum", "verifying", "rejected"],
  withdrawal: ["pending", "confirmed", "error", "rejected", "declined"],
  exchange: ["confirmed"],
};

export function isCallbackStatus(type: string, status: string): boolean {
  const kind = KIND_OF_TYPE[type as TransactionType];
  return kind !== undefined && (CALLBACK_STATUSES[kind] as readonly string[]).includes(status);
}

/**
 * A payment's own row (deposits.status), beside its deposit or invoice transaction: `seen` until
 * its confirmations are in, then credited to the merchant, held for a compliance review, or unwound
 * when a reorganisation removed it; a held one is released (credited) or rejected. Every change is
 * a conditional update from the status it leaves (lib/deposits/move-deposit.ts).
 */
export const DEPOSIT_TRANSITIONS = {
  seen: ["credited", "held", "unwound"],
  held: ["credited", "rejected", "unwound"],
  credited: [],
  unwound: [],
  rejected: [],
} as const satisfies Record<string, readonly string[]>;
export type DepositStatus = keyof typeof DEPOSIT_TRANSITIONS;

/** Every status an invoice can have, in the order of its life. */
export const INVOICE_STATUSES = Object.keys(TRANSITIONS.invoice) as InvoiceStatus[];
/** Where an invoice's life ends: no transition leaves these. */
export const TERMINAL_INVOICE_STATUSES: readonly InvoiceStatus[] = INVOICE_STATUSES.filter(
  (status) => TRANSITIONS.invoice[status].length === 0,
);
/** An invoice still open: payable, or a payment of it under way. */
export const OPEN_INVOICE_STATUSES: readonly InvoiceStatus[] = INVOICE_STATUSES.filter(
  (status) => TRANSITIONS.invoice[status].length > 0,
);

/** Why an invoice ended as it did; shown to merchants and (in words) to customers. */
export type InvoiceReason =
  | "paid"
  // short, but within the merchant's underpayment tolerance (lib/invoices/judge-payments.ts)
  | "paid_within_tolerance"
  | "overpaid"
  | "underpaid"
  | "expired"
  | "partially_paid"
  // its payments seen were still unconfirmed 24 hours after it entered processing
  | "processing_expired"
  | "cancelled_by_merchant";
