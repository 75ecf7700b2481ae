import "server-only";

import { loadSeenUntil } from "@/lib/chain/evm/load-seen-until";
import { type Clock, systemClock } from "@/lib/clock";
import { findCurrency } from "@/lib/currencies/registry";
import type { Tx } from "@/lib/db/client";
import { enqueueChangeJob } from "@/lib/transactions/record-change";
import { invoiceExpiryJob } from "./invoice-jobs";
import { type InvoiceRecord, loadInvoiceById } from "./load-invoice";
import { processingDeadline } from "./processing-deadline";
import { setInvoiceStatus } from "./set-invoice-status";
import { judgeCredited } from "./settle-invoice";

/** How long the expiry job waits before looking again at an invoice whose network's watcher is behind. */
export const EXPIRY_RECHECK_SECONDS = 30;

/**
 * The expiry job: an invoice waiting at its deadline fails `expired` if nothing was credited, else is judged
 * on what was (judgeCredited: `underpaid` or `partially_paid`, refund instructions). A `processing` one fails
 * `processing_expired` after 24 hours unconfirmed (a later confirmation is credited late). A moved deadline
 * is left to its own job; while the watcher is behind the deadline, it looks again (EXPIRY_RECHECK_SECONDS).
 */
export async function expireInvoice(tx: Tx, invoiceId: number, clock: Clock = systemClock): Promise<void> {
  const record = await loadInvoiceById(tx, invoiceId, true);
  if (!record) return;
  const isProcessing = record.status === "processing";
  if (!isProcessing && record.status !== "created" && record.status !== "pending") return;
  const deadline = isProcessing ? await processingDeadline(tx, record.id) : record.invoice.expiresAt;
  if (!deadline || deadline > clock.now()) return;
  if (await isWatcherBehind(tx, record, deadline)) {
    const recheckAt = new Date(clock.now().getTime() + EXPIRY_RECHECK_SECONDS * 1000);
    await enqueueChangeJob(tx, record.id, invoiceExpiryJob(recheckAt, "watcher-behind"));
    return;
  }
  if (isProcessing) {
    await setInvoiceStatus(tx, record.id, "failed", "processing_expired");
    return;
  }
  const { confirmedAmount, creditedAmount } = record.invoice;
  // A payment to an address shown before a switch of coins is credited without adding to confirmedAmount.
  // What was credited is judged, not assumed short: an invoice paid in full whose settlement waited
  // for a payment since taken back is confirmed, never failed underpaid.
  if (confirmedAmount > 0n || creditedAmount > 0n) {
    await judgeCredited(tx, record, clock);
    return;
  }
  await setInvoiceStatus(tx, record.id, "failed", "expired");
}

/**
 * Whether the invoice's network is a real one whose watcher has not read the chain up to `deadline`:
 * a payment (or a confirmation) from before the deadline may still be found, so the deadline waits.
 */
async function isWatcherBehind(tx: Tx, record: InvoiceRecord, deadline: Date): Promise<boolean> {
  const network = findCurrency(record.address?.currency ?? record.invoice.senderCurrency ?? "")?.network;
  const seenUntil = network ? await loadSeenUntil(tx, network) : undefined;
  return seenUntil !== undefined && (seenUntil === null || seenUntil < deadline);
}
