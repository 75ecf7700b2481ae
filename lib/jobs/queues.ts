import "server-only";

/**
 * Every queue of Kassa's background work, named in one place. Domains import the name they enqueue
 * to; the job runner's handler table (lib/host/job-handlers.ts) maps each name to its work. A
 * name is stored in the jobs table, so renaming one strands the jobs already queued under it.
 */

/** An invoice's timer ran out: `{ invoiceId }`. */
export const INVOICE_EXPIRY_QUEUE = "invoice.expire";
/** An untimed invoice's rate lock ended before anything was paid: price it afresh, `{ invoiceId, lockSeconds }`. */
export const INVOICE_REPRICE_QUEUE = "invoice.reprice";
/** A new block on a network: credit deposits and confirm withdrawals, `{ currency }`. */
export const CHAIN_SCAN_QUEUE = "chain.scan";
/** Send an accepted withdrawal to its network: `{ withdrawalId }`. */
export const WITHDRAWAL_BROADCAST_QUEUE = "withdrawal.broadcast";
/** A withdrawal over a limit waited too long for an approver: decline it, `{ withdrawalId }`. */
export const WITHDRAWAL_APPROVAL_EXPIRY_QUEUE = "withdrawal.approval-expire";
/** Send one queued e-mail: `{ emailId }`. */
export const EMAIL_QUEUE = "email.send";
/** Deliver one merchant callback (its own runner pool): `{ callbackId }`. */
export const CALLBACK_QUEUE = "callback.deliver";
/** Credit an accepted exchange's receiver balance and confirm it: `{ transactionId }`. */
export const EXCHANGE_SETTLE_QUEUE = "exchange.settle";

/** A refund offered to a customer reached its expiry unclaimed: `{ refundId }`. */
export const REFUND_EXPIRY_QUEUE = "refund.expire";

/** Every queue, for what reports on all of them (the /metrics queue depth). */
export const ALL_QUEUES = [
  INVOICE_EXPIRY_QUEUE,
  INVOICE_REPRICE_QUEUE,
  CHAIN_SCAN_QUEUE,
  WITHDRAWAL_BROADCAST_QUEUE,
  WITHDRAWAL_APPROVAL_EXPIRY_QUEUE,
  EMAIL_QUEUE,
  CALLBACK_QUEUE,
  EXCHANGE_SETTLE_QUEUE,
  REFUND_EXPIRY_QUEUE,
] as const;
