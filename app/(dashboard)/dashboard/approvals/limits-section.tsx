"use client";

import type { z } from "zod";
import { dashboardAmount } from "@/components/dashboard/dashboard-amount";
import { buttonClass, Field, secondaryButtonClass, selectClass } from "@/components/forms/field";
import { selectDefault } from "@/components/forms/field-defaults";
import { errorMessage, FormError } from "@/components/forms/form-error";
import { formSchema } from "@/components/forms/form-schema";
import { useIsHydrated } from "@/components/forms/use-is-hydrated";
import { useKassaForm } from "@/components/forms/use-kassa-form";
import {
  useRemoveWithdrawalLimits,
  useSaveWithdrawalLimits,
  useWithdrawalLimits,
} from "@/components/query/use-approvals";
import type { withdrawalLimitsRequest } from "@/lib/schemas/withdrawals";

const schema = formSchema(() => import("@/lib/schemas/withdrawals").then((m) => m.withdrawalLimitsRequest));

type Values = z.input<typeof withdrawalLimitsRequest>;

/** The limits table and the form that sets one currency's limits (confirmed in the dashboard's one dialog). */
export function LimitsSection({ currencies }: { currencies: string[] }) {
  const isHydrated = useIsHydrated();
  const limits = useWithdrawalLimits();
  const save = useSaveWithdrawalLimits();
  const remove = useRemoveWithdrawalLimits();
  const form = useKassaForm<Values>(schema, {
    defaultValues: { currency: currencies[0] ?? "", per_withdrawal: "", per_day: "" },
  });
  const submit = form.submitWith(async (values) => {
    await save.mutateAsync(values);
    form.reset(values);
  });
  const removeLimits = (currency: string) => remove.mutate({ currency });
  return (
    <section aria-labelledby="limits-title" className="mt-10">
      <h2 id="limits-title" className="text-xl font-semibold">
        Withdrawal limits
      </h2>
      <p className="mt-1 max-w-2xl text-sm">
        A payout over a limit, from this dashboard or the API, waits here for another user of your account to
        approve it; its funds are reserved meanwhile. A currency's limits hold every payout and exchange that
        touches it, leaving your balance in it or converted into it (fees excluded); the daily limit counts
        them since midnight UTC. An exchange over a limit is refused: it has no approval.
      </p>
      {limits.isPending && <p aria-live="polite">Loading limits…</p>}
      {limits.data && limits.data.data.length === 0 && (
        <p className="mt-2 text-sm">No limits: payouts go at once.</p>
      )}
      {limits.data && limits.data.data.length > 0 && (
        <div className="mt-3 overflow-x-auto">
          <table className="min-w-full text-left text-sm">
            <caption className="sr-only">Your withdrawal limits per currency</caption>
            <thead>
              <tr className="border-b border-slate-200 dark:border-slate-800">
                <th scope="col" className="py-2 pr-4">
                  Currency
                </th>
                <th scope="col" className="py-2 pr-4">
                  Per withdrawal
                </th>
                <th scope="col" className="py-2 pr-4">
                  Per day
                </th>
                <th scope="col" className="py-2">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {limits.data.data.map((row) => (
                <tr key={row.currency} className="border-b border-slate-200 dark:border-slate-800">
                  <th scope="row" className="py-2 pr-4 font-medium">
                    {row.currency}
                  </th>
                  <td className="py-2 pr-4 font-mono">{dashboardAmount(row.per_withdrawal, row.currency)}</td>
                  <td className="py-2 pr-4 font-mono">
                    {row.per_day === null ? "no daily limit" : dashboardAmount(row.per_day, row.currency)}
                  </td>
                  <td className="py-2">
                    <button
                      type="button"
                      className={secondaryButtonClass}
                      disabled={remove.isPending}
                      onClick={() => removeLimits(row.currency)}
                      aria-label={`Remove the ${row.currency} limits`}
                    >
                      Remove
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <FormError message={remove.error ? errorMessage(remove.error) : null} />
      <form className="mt-4 max-w-md" onSubmit={submit} noValidate aria-label="Set withdrawal limits">
        <Field label="Currency" name="currency" idPrefix="limits" errors={form.formState.errors}>
          <select
            id="limits-currency"
            className={selectClass}
            defaultValue={selectDefault(form, "currency")}
            {...form.register("currency")}
          >
            {currencies.map((code) => (
              <option key={code} value={code}>
                {code}
              </option>
            ))}
          </select>
        </Field>
        <Field
          label="Largest payout without approval"
          name="per_withdrawal"
          idPrefix="limits"
          inputMode="decimal"
          hint="0 sends every payout in this currency for approval."
          errors={form.formState.errors}
          register={form.register("per_withdrawal")}
        />
        <Field
          label="Daily total without approval (optional)"
          name="per_day"
          idPrefix="limits"
          inputMode="decimal"
          errors={form.formState.errors}
          register={form.register("per_day")}
        />
        <FormError message={form.formError} />
        {save.isSuccess && (
          <p className="mt-2 text-sm" aria-live="polite">
            Saved: {save.data.currency} payouts over{" "}
            {dashboardAmount(save.data.per_withdrawal, save.data.currency)}
            {save.data.per_day ? ` or ${dashboardAmount(save.data.per_day, save.data.currency)} a day` : ""}{" "}
            now wait for approval.
          </p>
        )}
        <button
          type="submit"
          disabled={!isHydrated || form.formState.isSubmitting}
          className={`mt-3 ${buttonClass}`}
        >
          {form.formState.isSubmitting ? "Saving…" : "Save limits"}
        </button>
      </form>
    </section>
  );
}
