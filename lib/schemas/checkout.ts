import "server-only";

import { z } from "zod";
import { sender } from "./common";
import { cryptoCurrencyCode } from "./fields";
import "./messages";

/**
 * POST /api/checkout/<token>/currency: the customer's choice, the same field as an invoice's
 * `sender_currency` on POST /api/v2/invoices/create.
 */
export const fixCurrencyRequest = z.object({ currency: cryptoCurrencyCode });

/**
 * POST /api/checkout/<token>/customer: the customer's own details, the same `sender_type` and
 * `sender_data` (spec 2.1) as on POST /api/v2/invoices/create, validated by the same union.
 */
export const customerDetailsRequest = sender;
