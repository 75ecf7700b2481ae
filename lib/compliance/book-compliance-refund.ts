import "server-only";

import { and, eq, isNull } from "drizzle-orm";
import { type AuditSource, recordAuditEntry } from "@/lib/audit/record-audit-entry";
import type { Clock } from "@/lib/clock";
import type { Db, Tx } from "@/lib/db/client";
import { complianceReviews, deposits, ledgerAccounts } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import { fieldError, notFound } from "@/lib/errors";
import { platformAccount } from "@/lib/ledger/accounts";
import { type JournalEntry, postJournal } from "@/lib/ledger/post-journal";
import { formatAmount } from "@/lib/money";
import { checkRefundable } from "./check-refundable";
import { readHeldPayment } from "./read-held-payment";

export type ComplianceRefund = {
  review_id: number;
  merchant_id: number;
  currency: string;
  amount: string;
  sent: string;
  fee: string;
  gas: string;
  refund_txid: string;
  refunded_at: string;
};

/**
 * What the refund moved: on a sandbox chain the operator types the fee withheld (the amount sent
 * follows), on the EVM chain the amount sent is read from the node (the fee withheld follows, and a
 * `sent` above the held amount is refused).
 */
type RefundAmounts = { fee: bigint; sent?: undefined } | { sent: bigint; fee?: undefined };

/**
 * Books, once, the operator's refund of a rejected payment (docs/OPERATIONS.md, "Rejected payments"): the
 * review `rejected`, its coins held and in the chain (check-refundable.ts), not refunded yet (one conditional
 * update decides; a txid books one refund). One transaction, with the audit entry and `alsoInTransaction`,
 * moves the held amount out of platform:compliance_held, booking the fee withheld and `gas` as a payout's.
 */
export async function bookComplianceRefund(
  db: Db,
  input: RefundAmounts & {
    reviewId: number;
    txid: string;
    gas: bigint;
    audit: AuditSource;
    clock?: Clock;
    alsoInTransaction?: (tx: Tx) => Promise<void>;
  },
): Promise<ComplianceRefund> {
  const txid = input.txid.trim();
  if (!/^[0-9A-Za-z]{16,128}$/.test(txid.replace(/^0x/, "")))
    throw fieldError({ txid: "Type the refund's transaction id (as the explorer shows it)." });
  if ((input.fee ?? 0n) < 0n || input.gas < 0n) throw fieldError({ fee: "A fee cannot be negative." });
  return inTransaction(db, async (tx) => {
    const [review] = await tx
      .select()
      .from(complianceReviews)
      .where(eq(complianceReviews.id, input.reviewId));
    if (!review) throw notFound("No such review.");
    // Locks the payment's chain row: a reorganisation marking it removed waits for this booking, or
    // this booking sees it removed.
    const held = await readHeldPayment(tx, review.id, { lock: true });
    if (!held) throw notFound("No such deposit.");
    checkRefundable(held);
    const [deposit] = await tx.select().from(deposits).where(eq(deposits.id, review.depositId));
    if (!deposit) throw notFound("No such deposit.");
    if (input.sent !== undefined && input.sent > deposit.amount)
      throw fieldError({
        txid: `This transaction sent ${formatAmount(input.sent)} ${deposit.currency}, more than the ${formatAmount(deposit.amount)} held: it is not this payment's refund.`,
      });
    const fee = input.sent === undefined ? input.fee : deposit.amount - input.sent;
    if (fee >= deposit.amount)
      throw fieldError({
        fee: `The fee must be less than the amount held, ${formatAmount(deposit.amount)}.`,
      });
    const now = input.clock ? input.clock.now() : new Date();
    // The conditional update is the once-only gate: a concurrent refund finds refunded_at set.
    const [claimed] = await tx
      .update(complianceReviews)
      .set({ refundTxid: txid, refundedAt: now })
      .where(
        and(
          eq(complianceReviews.id, review.id),
          eq(complianceReviews.status, "rejected"),
          isNull(complianceReviews.refundedAt),
        ),
      )
      .returning({ id: complianceReviews.id })
      .catch((error: unknown) => {
        if (String((error as { cause?: unknown })?.cause ?? error).includes("refund_txid_key"))
          throw fieldError({ txid: "This transaction id already booked another refund." });
        throw error;
      });
    if (!claimed) throw fieldError({ review: "This payment's refund is already booked." });
    const { currency, amount } = deposit;
    const sent = amount - fee;
    const sums = new Map<string, bigint>();
    const add = (key: string, value: bigint) => sums.set(key, (sums.get(key) ?? 0n) + value);
    add(`platform:compliance_held|${currency}`, -amount);
    add(`platform:chain|${currency}`, sent);
    add(`platform:network_fees|${currency}`, fee);
    add("platform:network_fees|ETH", -input.gas);
    add("platform:chain|ETH", input.gas);
    const entries: JournalEntry[] = [];
    for (const [key, value] of sums) {
      if (value === 0n) continue;
      const [kind, entryCurrency] = key.split("|") as [
        "platform:compliance_held" | "platform:chain" | "platform:network_fees",
        string,
      ];
      entries.push({ account: platformAccount(kind, entryCurrency), amount: value });
    }
    await postJournal(tx, {
      merchantId: review.merchantId,
      transactionId: review.transactionId,
      kind: "compliance_refund",
      memo: `Rejected payment refunded: ${formatAmount(sent)} ${currency} sent in ${txid}, fee ${formatAmount(fee)} ${currency}, gas ${formatAmount(input.gas)} ETH`,
      entries,
    });
    // The last line of defence: money out of the held account never exceeds what is in it. Read
    // after posting, which locked the accounts in one order (kassa_post_journals): locking the held
    // account first would take them in another than a rejection does, and could deadlock with it.
    const [account] = await tx
      .select({ balance: ledgerAccounts.balance })
      .from(ledgerAccounts)
      .where(
        and(
          isNull(ledgerAccounts.merchantId),
          eq(ledgerAccounts.kind, "platform:compliance_held"),
          eq(ledgerAccounts.currency, currency),
        ),
      );
    const left = account?.balance ?? -amount;
    if (left < 0n)
      throw fieldError({
        review: `platform:compliance_held holds ${formatAmount(left + amount)} ${currency}, less than this payment's ${formatAmount(amount)}: nothing is refunded.`,
      });
    await input.alsoInTransaction?.(tx);
    await recordAuditEntry(tx, {
      merchantId: review.merchantId,
      ...input.audit,
      action: "review_refunded",
      detail: `review ${review.id}: ${formatAmount(sent)} ${currency} refunded, txid ${txid}`,
    });
    return {
      review_id: review.id,
      merchant_id: review.merchantId,
      currency,
      amount: formatAmount(amount),
      sent: formatAmount(sent),
      fee: formatAmount(fee),
      gas: formatAmount(input.gas),
      refund_txid: txid,
      refunded_at: now.toISOString(),
    };
  });
}
