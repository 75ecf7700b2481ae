import "server-only";

/** What /exchange/now and /exchange/fixed both ask for: the merchant's order, before its price. */
export type ExchangeOrder = {
  merchantId: number;
  foreignId: string;
  senderCurrency: string;
  receiverCurrency: string;
  senderAmount?: bigint;
  receiverAmount?: bigint;
  /** The API key whose request it is (it signs the exchange's callbacks). */
  apiKeyId?: number;
};

/** The common fields of an /exchange/now or /exchange/fixed request body, as the engine takes them. */
export function toExchangeOrder(
  merchantId: number,
  body: {
    foreign_id: string;
    sender_currency: string;
    receiver_currency: string;
    sender_amount?: bigint;
    receiver_amount?: bigint;
  },
): ExchangeOrder {
  return {
    merchantId,
    foreignId: body.foreign_id,
    senderCurrency: body.sender_currency,
    receiverCurrency: body.receiver_currency,
    senderAmount: body.sender_amount,
    receiverAmount: body.receiver_amount,
  };
}
