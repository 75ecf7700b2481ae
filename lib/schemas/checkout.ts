import "server-only";

import { z } from "zod";
import { cryptoCurrencyCode } from "./fields";
import "./messages";

/**
 * POST /api/checkout/<token>/currency: the customer's choice, the same field as an invoice's
 * `sender_currency` on POST /api/v2/invoices/create.
 */
export const fixCurrencyRequest = z.object({ currency: cryptoCurrencyCode });
