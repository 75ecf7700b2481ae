import "server-only";

import { formatAmountShort } from "@/lib/money";

/** The customer's e-mail when a merchant issues a refund: the link to claim it, and until when. */
export function refundReadyEmail(facts: {
  merchantName: string;
  title: string;
  invoiceId: number;
  amount: bigint;
  currency: string;
  link: string;
  expiresAt: Date;
}) {
  return {
    subject: `${facts.merchantName} has a refund ready for you to claim`,
    body:
      `${facts.merchantName} is refunding ${formatAmountShort(facts.amount)} ${facts.currency} for "${facts.title}" (#${facts.invoiceId}).\n\n` +
      `Open this link, choose the coin and enter the address to receive it:\n${facts.link}\n\n` +
      `The link works until ${facts.expiresAt.toISOString().slice(0, 16).replace("T", " ")} UTC and can be used once. ` +
      "No account is needed; nobody from Kassa or the merchant will ask you for the link.\n\n" +
      `This message was sent by Kassa on behalf of ${facts.merchantName}.`,
  };
}
