import { z } from "zod";
import "./messages";

/** Why a merchant closed an invoice's exception without a refund (lib/invoices/resolve-invoice-exception.ts). */
export const RESOLUTION_REASONS = ["paid_outside", "customer_declined", "too_small", "other"] as const;

/** Dashboard (and any API route that adds it): "Mark resolved", with a reason; "other" needs a note. */
export const resolveInvoiceRequest = z
  .object({
    reason: z.enum(RESOLUTION_REASONS, "Choose why the invoice is resolved."),
    note: z.string().trim().max(500, "Keep the note under 500 characters.").default(""),
  })
  .refine((body) => body.reason !== "other" || body.note !== "", {
    path: ["note"],
    message: "Say why in the note.",
  });
