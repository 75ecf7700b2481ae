import "server-only";

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
  /**
   * Set when the payments were judged by value (part of them converted after the invoice's rate lock
   * expired): what they were worth and what was invoiced, in the invoice currency.
   */
  worth?: { paid: bigint; due: bigint; currency: string } | null;
  /** The merchant's support address: the message's Reply-To (lib/mail/send-email.ts); null when none is set. */
  supportEmail?: string | null;
};

const amount = (value: bigint, currency: string) => `${formatAmountShort(value)} ${currency}`;
/** What arrived: in the pay currency, with its worth when judged by value. */
const received = (facts: InvoiceFacts) =>
  facts.worth
    ? `${amount(facts.paid, facts.currency)} (worth ${amount(facts.worth.paid, facts.worth.currency)} when it arrived)`
    : amount(facts.paid, facts.currency);
/** What the invoice asked: the amount due, or, judged by value, the invoice amount. */
const asked = (facts: InvoiceFacts) =>
  facts.worth ? amount(facts.worth.due, facts.worth.currency) : amount(facts.due, facts.currency);
/**
 * Who reads a reply: the merchant's support address when they set one (it is the Reply-To), else
 * nobody, and the customer is told so rather than left waiting for an answer.
 */
const contact = (facts: InvoiceFacts) =>
  facts.supportEmail
    ? `Questions? Reply to this message or write to ${facts.supportEmail}: it reaches ${facts.merchantName}.`
    : `Replies to this message are not read: contact ${facts.merchantName} through their shop.`;
const footer = (facts: InvoiceFacts) =>
  `\n\nInvoice: ${facts.title} (#${facts.invoiceId}) from ${facts.merchantName}.\n${contact(facts)}\nThis message was sent by Kassa on behalf of ${facts.merchantName}.`;

export function underpaidEmail(facts: InvoiceFacts) {
  return {
    subject: `Your payment to ${facts.merchantName} was less than the amount due`,
    body:
      `We received ${received(facts)}, but the invoice asked for ${asked(facts)}, ` +
      "so the payment could not complete it.\n\n" +
      `You are entitled to a full refund of the ${amount(facts.paid, facts.currency)} you sent. ` +
      `${facts.merchantName} will send you a link to claim it, where you choose the coin and the address; do not send the missing amount to the old address.` +
      footer(facts),
  };
}

export function overpaidEmail(facts: InvoiceFacts) {
  const extra = amount(facts.paid - facts.due, facts.currency);
  const refund = facts.worth
    ? `The extra, worth ${amount(facts.worth.paid - facts.worth.due, facts.worth.currency)}, will be refunded to you.\n\n` +
      `${facts.merchantName} will send you a link to claim it, where you choose the coin and the address to receive it.`
    : `The extra ${extra} will be refunded to you.\n\n` +
      `${facts.merchantName} will send you a link to claim the ${extra}, where you choose the address to receive it.`;
  return {
    subject: `You paid ${facts.merchantName} more than the amount due`,
    body: `Your payment of ${received(facts)} completed the invoice for ${asked(facts)}. ${refund}${footer(facts)}`,
  };
}

export function partiallyPaidEmail(facts: InvoiceFacts) {
  return {
    subject: `Your invoice from ${facts.merchantName} expired before it was paid in full`,
    body:
      `The invoice expired after receiving ${received(facts)} of ${asked(facts)}.\n\n` +
      `You are entitled to a full refund of the ${amount(facts.paid, facts.currency)} you sent. ` +
      `${facts.merchantName} will send you a link to claim it, where you choose the coin and the address to receive it.` +
      footer(facts),
  };
}

export function latePaymentEmail(facts: InvoiceFacts & { received: bigint }) {
  return {
    subject: `A payment reached ${facts.merchantName} after the invoice had closed`,
    body:
      `We received ${amount(facts.received, facts.currency)} after the invoice was no longer open. ` +
      `The funds are safe with ${facts.merchantName}, who will either complete your order or refund you.\n\n` +
      `To refund you, ${facts.merchantName} will send you a link to claim it, where you choose the coin and the address to receive it; you need not send them an address.` +
      footer(facts),
  };
}

export function receiptEmail(facts: InvoiceFacts) {
  return {
    subject: `Payment received: ${facts.title}`,
    body: `Thank you. Your payment of ${amount(facts.paid, facts.currency)} to ${facts.merchantName} is confirmed.${footer(facts)}`,
  };
}
