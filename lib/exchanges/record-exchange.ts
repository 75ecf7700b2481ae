import "server-only";

import type { Clock } from "@/lib/clock";
import type { Tx } from "@/lib/db/client";
import { exchanges, transactions } from "@/lib/db/schema";
import { fieldError } from "@/lib/errors";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { EXCHANGE_SETTLE_QUEUE } from "@/lib/jobs/queues";
import { merchantBalance, platformAccount } from "@/lib/ledger/accounts";
import { BalanceCapError, postJournal } from "@/lib/ledger/post-journal";
import { readBalance } from "@/lib/ledger/read-balance";
import { exchangeLegs, judgeWithdrawalLimits, overLimitText } from "@/lib/limits/judge-withdrawal-limits";
import { MAX_AMOUNT } from "@/lib/money";
import { recordCreated } from "@/lib/transactions/transition-status";
import type { ExchangePrice } from "./price-exchange";

export type ExchangeKind = "fixed" | "now";

/**
 * Writes an accepted exchange in the caller's transaction, within the merchant's limits of both its
 * currencies (lib/limits): the `processing` transaction, its figures, first timeline event, the debit of
 * the sender balance into the platform's exchange position (refused if not covered), the settling job.
 * No approval flow: over a limit is a field error on `amountField` (the limit, what is left today).
 */
export async function recordExchange(
  tx: Tx,
  input: {
    merchantId: number;
    foreignId: string;
    kind: ExchangeKind;
    price: ExchangePrice;
    quoteId: number | null;
    /** The request's amount field, for a refusal over a limit. */
    amountField: "sender_amount" | "receiver_amount";
    clock?: Clock;
    /** The API key whose request creates it (it signs the exchange's callbacks). */
    apiKeyId?: number;
  },
): Promise<number> {
  const { price } = input;
  const verdict = await judgeWithdrawalLimits(tx, {
    merchantId: input.merchantId,
    legs: exchangeLegs(price),
    clock: input.clock,
  });
  if (!verdict.isWithin) throw fieldError({ [input.amountField]: overLimitText(verdict, "exchange") });
  // The credit comes later, in the job: an exchange that would take the receiver balance past the
  // amount cap is refused now, while the merchant can still be told, rather than left unsettled.
  const received = await readBalance(tx, { merchantId: input.merchantId, currency: price.receiverCurrency });
  if (received + price.receiverAmount > MAX_AMOUNT) throw new BalanceCapError(price.receiverCurrency);
  const [created] = await tx
    .insert(transactions)
    .values({
      merchantId: input.merchantId,
      type: "exchange",
      status: "processing",
      foreignId: input.foreignId,
      currency: price.senderCurrency,
      amount: price.senderAmount,
      apiKeyId: input.apiKeyId ?? null,
    })
    .returning({ id: transactions.id });
  const id = created!.id;
  await tx.insert(exchanges).values({
    transactionId: id,
    merchantId: input.merchantId,
    kind: input.kind,
    quoteId: input.quoteId,
    senderCurrency: price.senderCurrency,
    receiverCurrency: price.receiverCurrency,
    senderAmount: price.senderAmount,
    receiverAmount: price.receiverAmount,
    feeAmount: price.feeAmount,
    feeType: price.feeType,
    price: price.price,
    rateNumerator: price.rate.numerator,
    rateDenominator: price.rate.denominator,
    midRateNumerator: price.midRate.numerator,
    midRateDenominator: price.midRate.denominator,
    spreadPpm: price.spreadPpm,
  });
  await recordCreated(tx, { transactionId: id, merchantId: input.merchantId, status: "processing" });
  await postJournal(tx, {
    merchantId: input.merchantId,
    transactionId: id,
    kind: "exchange_debit",
    memo: `Exchange ${id}: ${price.senderCurrency} to ${price.receiverCurrency}`,
    entries: [
      { account: merchantBalance(input.merchantId, price.senderCurrency), amount: -price.senderAmount },
      { account: platformAccount("platform:exchange", price.senderCurrency), amount: price.senderAmount },
    ],
  });
  await enqueueJob(tx, {
    queue: EXCHANGE_SETTLE_QUEUE,
    payload: { transactionId: id },
    dedupeKey: `exchange-settle:${id}`,
  });
  return id;
}
