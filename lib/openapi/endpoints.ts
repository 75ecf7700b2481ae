import "server-only";

import type { Endpoint } from "@/lib/api/endpoint";
import { takeAddressEndpoint } from "@/lib/schemas/addresses";
import { resendCallbackEndpoint } from "@/lib/schemas/callbacks";
import { eventsListEndpoint } from "@/lib/schemas/events";
import {
  currencyPairsEndpoint,
  currencyRatesEndpoint,
  exchangeCalculateEndpoint,
  exchangeFixedEndpoint,
  exchangeNowEndpoint,
} from "@/lib/schemas/exchange";
import { cancelInvoiceEndpoint, createInvoiceEndpoint } from "@/lib/schemas/invoices";
import {
  createPaymentLinkEndpoint,
  deactivatePaymentLinkEndpoint,
  listPaymentLinksEndpoint,
} from "@/lib/schemas/payment-links";
import { payoutBatchEndpoint, payoutBatchInfoEndpoint } from "@/lib/schemas/payout-batches";
import { accountsListEndpoint, currenciesListEndpoint, pingEndpoint } from "@/lib/schemas/platform";
import {
  cancelRefundEndpoint,
  createRefundEndpoint,
  listRefundsEndpoint,
  previewRefundEndpoint,
} from "@/lib/schemas/refunds";
import { sandboxBlocksEndpoint, sandboxPaymentEndpoint } from "@/lib/schemas/sandbox";
import { transactionInfoEndpoint } from "@/lib/schemas/transactions";
import { instantWithdrawalEndpoint, withdrawalEndpoint } from "@/lib/schemas/withdrawals";

/** Every endpoint of /api/v2, in the order the reference lists them. Each new endpoint adds itself here. */
export const ENDPOINTS: Endpoint[] = [
  pingEndpoint,
  currenciesListEndpoint,
  accountsListEndpoint,
  createInvoiceEndpoint,
  cancelInvoiceEndpoint,
  previewRefundEndpoint,
  createRefundEndpoint,
  listRefundsEndpoint,
  cancelRefundEndpoint,
  createPaymentLinkEndpoint,
  listPaymentLinksEndpoint,
  deactivatePaymentLinkEndpoint,
  takeAddressEndpoint,
  withdrawalEndpoint,
  instantWithdrawalEndpoint,
  payoutBatchEndpoint,
  payoutBatchInfoEndpoint,
  currencyPairsEndpoint,
  currencyRatesEndpoint,
  exchangeCalculateEndpoint,
  exchangeFixedEndpoint,
  exchangeNowEndpoint,
  transactionInfoEndpoint,
  resendCallbackEndpoint,
  eventsListEndpoint,
  sandboxPaymentEndpoint,
  sandboxBlocksEndpoint,
];
