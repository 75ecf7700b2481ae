import type { z } from "zod";
import { type FormSchema, formSchema } from "@/components/forms/form-schema";
import type { payoutRequest } from "@/lib/schemas/dashboard";
import type { instantWithdrawalRequest } from "@/lib/schemas/withdrawals";

export type PayoutKind = "withdrawal" | "instant";

/** Values a link may prefill (a refund from the invoice page). */
export type PayoutPrefill = Partial<
  Record<
    "currency" | "convert_to" | "amount" | "amount_to" | "foreign_id" | "end_user_reference" | "refund_of",
    string
  >
>;

/** The payout form holds either request, as its endpoint's schema types it. */
export type PayoutValues = z.input<typeof payoutRequest> | z.input<typeof instantWithdrawalRequest>;

/** The field the amount is typed in: the source currency's, convert_to's, or an instant payout's. */
export type AmountField = "amount" | "amount_to" | "sender_amount";

export const payoutSchemas: Record<PayoutKind, FormSchema<PayoutValues>> = {
  withdrawal: formSchema<PayoutValues>(() => import("@/lib/schemas/dashboard").then((m) => m.payoutRequest)),
  instant: formSchema<PayoutValues>(() =>
    import("@/lib/schemas/withdrawals").then((m) => m.instantWithdrawalRequest),
  ),
};
