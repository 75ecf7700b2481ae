import { z } from "zod";
import { amount } from "./amount";
import { cryptoCurrencyCode, currencyCode } from "./fields";
import "./messages";

export const onboardingRequest = z.object({
  name: z.string().trim().min(1).max(120),
  callback_url: z.string().trim().max(2048).optional().or(z.literal("")),
  key_label: z.string().trim().max(100).optional(),
});

export const apiKeyRequest = z.object({ label: z.string().trim().min(1).max(100) });

export const callbackUrlRequest = z.object({ callback_url: z.string().trim().max(2048) });

export const passwordRequest = z.object({
  current_password: z.string().min(1).max(200),
  new_password: z.string().min(10, { error: "The :attribute must be at least 10 characters." }).max(200),
});

export const totpEnableRequest = z.object({
  secret: z.string().min(16).max(64),
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, { error: "Enter the 6-digit code from your authenticator app." }),
});

export const quoteRequest = z.object({
  currency: currencyCode,
  convert_to: cryptoCurrencyCode,
  amount: amount.optional(),
  amount_to: amount.optional(),
});

export const sandboxCreditRequest = z.object({ currency: currencyCode, amount });
export const sandboxRateRequest = z.object({ currency: currencyCode, usd_price: amount });
export const sandboxPayRequest = z.object({
  address: z.string().trim().min(1).max(128),
  currency: cryptoCurrencyCode,
  amount,
  tag: z.string().trim().max(20).optional(),
});
export const sandboxMineRequest = z.object({
  currency: cryptoCurrencyCode,
  count: z.coerce.number().int().min(1).max(100),
});
