import { formatAmountShort } from "@/lib/money";

/**
 * The messages Kassa sends a merchant's customer. Plain text, in words a customer understands:
 * what happened, and what happens next.
 */
type InvoiceFacts = {
  merchantName: string;
  title: string;
  invoiceId: number;
  currency: string;
  due: bigint;
  paid: bigint;
};

const amount = (value: bigint, currency: string) => `${formatAmountShort(value)} ${currency}`;
const footer = (facts: InvoiceFacts) =>
  `\n\nInvoice: ${facts.title} (#${facts.invoiceId}) from ${facts.merchantName}.\nThis message was sent by Kassa on behalf of ${facts.merchantName}.`;

export function underpaidEmail(facts: InvoiceFacts) {
  return {
    subject: `Your payment to ${facts.merchantName} was less than the amount due`,
    body:
      `We received ${amount(facts.paid, facts.currency)}, but the invoice asked for ${amount(facts.due, facts.currency)}, ` +
      "so the payment could not complete it.\n\n" +
      `You are entitled to a full refund of the ${amount(facts.paid, facts.currency)} you sent. ` +
      `Reply to ${facts.merchantName} with the address the refund should go to; do not send the missing amount to the old address.` +
      footer(facts),
  };
}

export function overpaidEmail(facts: InvoiceFacts) {
  const extra = facts.paid - facts.due;
  return {
    subject: `You paid ${facts.merchantName} more than the amount due`,
    body:
      `Your payment of ${amount(facts.paid, facts.currency)} completed the invoice for ${amount(facts.due, facts.currency)}. ` +
      `The extra ${amount(extra, facts.currency)} will be refunded to you.\n\n` +
      `Reply to ${facts.merchantName} with the address the ${amount(extra, facts.currency)} should go to.` +
      footer(facts),
  };
}

export function partiallyPaidEmail(facts: InvoiceFacts) {
  return {
    subject: `Your invoice from ${facts.merchantName} expired before it was paid in full`,
    body:
      `The invoice expired after receiving ${amount(facts.paid, facts.currency)} of ${amount(facts.due, facts.currency)}.\n\n` +
      `You are entitled to a full refund of the ${amount(facts.paid, facts.currency)} you sent. ` +
      `Reply to ${facts.merchantName} with the address the refund should go to.` +
      footer(facts),
  };
}

export function latePaymentEmail(facts: InvoiceFacts & { received: bigint }) {
  return {
    subject: `A payment reached ${facts.merchantName} after the invoice had closed`,
    body:
      `We received ${amount(facts.received, facts.currency)} after the invoice was no longer open. ` +
      `The funds are safe with ${facts.merchantName}, who will either complete your order or refund you.\n\n` +
      `Reply to ${facts.merchantName} if you have not heard from them.` +
      footer(facts),
  };
}

export function receiptEmail(facts: InvoiceFacts) {
  return {
    subject: `Payment received: ${facts.title}`,
    body: `Thank you. Your payment of ${amount(facts.paid, facts.currency)} to ${facts.merchantName} is confirmed.${footer(facts)}`,
  };
}
