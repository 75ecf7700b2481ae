"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { PartyFields } from "@/components/dashboard/sender-fields";
import { buttonClass, Field, secondaryButtonClass, selectClass } from "@/components/forms/field";
import { useKassaForm, withoutEmpty } from "@/components/forms/use-kassa-form";
import { displayAmount } from "@/lib/checkout/present";
import { CURRENCIES, findCurrency } from "@/lib/currencies/registry";
import { DashboardRequestError, dashboardFetch } from "@/lib/dashboard/client-api";

type Quote = {
  source: string;
  target: string;
  principal: string;
  sent: string;
  withdrawal_fee: string;
  network_fee: string;
  total_debit: string;
  rate: string | null;
};
type Balances = { balances: { currency: string; balance: string }[] };
type Values = Record<string, string | undefined>;

const CRYPTO = CURRENCIES.filter((c) => c.kind === "crypto");

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

const loadWithdrawal = () => import("@/lib/schemas/withdrawals").then((m) => m.withdrawalRequest);
const loadInstant = () => import("@/lib/schemas/withdrawals").then((m) => m.instantWithdrawalRequest);

export function PayoutForm({ kind }: { kind: "withdrawal" | "instant" }) {
  const isInstant = kind === "instant";
  const form = useKassaForm<Values>(isInstant ? loadInstant : loadWithdrawal, {
    shouldUnregister: true,
    defaultValues: {
      foreign_id: `payout-${Date.now().toString(36)}`,
      sender_type: "legal",
      receiver_type: "natural",
      ...(isInstant
        ? { sender_currency: "BTC" }
        : { currency: "BTC", convert_to: "", amount_mode: "amount" }),
    },
  });
  const { register, watch, formState } = form;
  const [review, setReview] = useState<Quote | null>(null);
  const [result, setResult] = useState<{ id: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const balances = useQuery({
    queryKey: ["balances"],
    queryFn: () => dashboardFetch<Balances>("/api/dashboard/balances"),
  });
  // Any change after the review makes the figures under review stale: review again.
  useEffect(() => {
    const subscription = watch(() => setReview(null));
    return () => subscription.unsubscribe();
  }, [watch]);

  const source = (isInstant ? watch("sender_currency") : watch("currency")) ?? "BTC";
  const convertTo = isInstant ? "" : (watch("convert_to") ?? "");
  const target = convertTo || source;
  const amountMode = watch("amount_mode") ?? "amount";
  const amountField = isInstant
    ? "sender_amount"
    : amountMode === "amount_to" && convertTo
      ? "amount_to"
      : "amount";
  const amountValue = watch(amountField) ?? "";
  const address = watch("address") ?? "";
  const targetCurrency = findCurrency(target);
  // The address codecs (checksums for every network, ~20 KB gzipped) load after the page shows;
  // until then the hint waits, and the server checks the address in any case.
  const [codec, setCodec] = useState<typeof import("@/lib/chain/address-codec")>();
  useEffect(() => {
    import("@/lib/chain/address-codec").then(setCodec, () => {});
  }, []);
  const addressCheck =
    codec && address && targetCurrency?.addressFormat
      ? codec.checkAddress(targetCurrency.addressFormat, address.trim())
      : null;

  const quoteInput = useDebounced({ source, target, amountField, amountValue }, 400);
  const quote = useQuery({
    queryKey: ["quote", quoteInput],
    enabled:
      /^\d+(\.\d+)?$/.test(quoteInput.amountValue) && findCurrency(quoteInput.target)?.kind === "crypto",
    queryFn: () =>
      dashboardFetch<Quote>("/api/dashboard/quote", {
        body: {
          currency: quoteInput.source,
          convert_to: quoteInput.target,
          [quoteInput.amountField === "amount_to" ? "amount_to" : "amount"]: quoteInput.amountValue,
        },
      }),
    retry: false,
  });
  const balanceOf = (code: string) =>
    balances.data?.balances.find((b) => b.currency === code)?.balance ?? null;

  const body = (values: Values) => {
    const { amount_mode: _mode, ...rest } = values;
    return withoutEmpty(rest);
  };
  const toReview = form.handleSubmit(async (values) => {
    setError(null);
    try {
      setReview(
        await dashboardFetch<Quote>("/api/dashboard/quote", {
          body: {
            currency: source,
            convert_to: target,
            [amountField === "amount_to" ? "amount_to" : "amount"]: values[amountField],
          },
        }),
      );
    } catch (caught) {
      if (caught instanceof DashboardRequestError && caught.fields.amount)
        form.setError(amountField, { type: "server", message: caught.fields.amount });
      setError(form.applyServerError(caught));
    }
  });
  const confirm = form.handleSubmit(async (values) => {
    setError(null);
    try {
      setResult(
        await dashboardFetch<{ id: number }>(
          isInstant ? "/api/dashboard/withdrawals/instant" : "/api/dashboard/withdrawals",
          { body: body(values) },
        ),
      );
    } catch (caught) {
      setReview(null);
      setError(form.applyServerError(caught));
    }
  });

  if (result) {
    return (
      <section aria-labelledby="sent" className="mt-6">
        <h2 id="sent" className="text-xl font-semibold">
          Payout {result.id} accepted
        </h2>
        <p className="mt-2">
          The amount and fees are debited. It is being sent; its status updates in the transaction view.
        </p>
        <a href={`/dashboard/transactions/${result.id}`} className={`mt-4 inline-block ${buttonClass}`}>
          Follow the payout
        </a>
      </section>
    );
  }

  const { errors, isSubmitting } = formState;
  return (
    <form onSubmit={review ? confirm : toReview} noValidate className="mt-4 max-w-3xl">
      <div className="grid gap-x-4 sm:grid-cols-2">
        <Field
          label={isInstant ? "Currency to send" : "Pay from balance"}
          name={isInstant ? "sender_currency" : "currency"}
          errors={errors}
        >
          <select
            id={`field-${isInstant ? "sender_currency" : "currency"}`}
            className={selectClass}
            {...register(isInstant ? "sender_currency" : "currency")}
          >
            {(isInstant ? CRYPTO : CURRENCIES).map((c) => (
              <option key={c.code} value={c.code}>
                {c.code} · balance{" "}
                {balanceOf(c.code) === null ? "…" : displayAmount(balanceOf(c.code), c.code)}
              </option>
            ))}
          </select>
        </Field>
        {!isInstant && (
          <Field
            label="Convert to (optional)"
            name="convert_to"
            errors={errors}
            hint="Send a different crypto currency than the balance's."
          >
            <select id="field-convert_to" className={selectClass} {...register("convert_to")}>
              <option value="">No conversion</option>
              {CRYPTO.filter((c) => c.code !== source).map((c) => (
                <option key={c.code} value={c.code}>
                  {c.code}
                </option>
              ))}
            </select>
          </Field>
        )}
      </div>
      {!isInstant && convertTo && (
        <fieldset className="mt-3">
          <legend className="text-sm font-medium">Amount given in</legend>
          <div className="mt-1 flex gap-4 text-sm">
            <label className="flex items-center gap-2">
              <input type="radio" value="amount" {...register("amount_mode")} /> {source} to debit (amount)
            </label>
            <label className="flex items-center gap-2">
              <input type="radio" value="amount_to" {...register("amount_mode")} /> {convertTo} to send
              (amount_to)
            </label>
          </div>
        </fieldset>
      )}
      <Field
        key={amountField}
        label={`Amount (${amountField === "amount_to" ? convertTo : source})`}
        name={amountField}
        inputMode="decimal"
        errors={errors}
        register={register(amountField)}
      />
      {quote.data && (
        <p className="mt-1 text-sm text-slate-700 dark:text-slate-300" aria-live="polite">
          Sends {displayAmount(quote.data.sent, quote.data.target)}; debits{" "}
          {displayAmount(quote.data.total_debit, quote.data.source)} including fees
          {quote.data.rate
            ? ` (rate ${displayAmount(quote.data.rate, quote.data.target)} per ${quote.data.source})`
            : ""}
          .
        </p>
      )}
      {quote.error instanceof DashboardRequestError && (
        <p className="mt-1 text-sm text-amber-800 dark:text-amber-300">
          {Object.values(quote.error.fields)[0] ?? quote.error.message}
        </p>
      )}
      <Field
        label={`Destination ${targetCurrency?.name ?? target} address`}
        name="address"
        errors={errors}
        register={register("address")}
        autoComplete="off"
        spellCheck={false}
        hint={
          addressCheck
            ? addressCheck.isValid
              ? `A valid ${targetCurrency?.name} address.`
              : `This ${addressCheck.reason}.`
            : undefined
        }
      />
      {targetCurrency && targetCurrency.tagSupport !== "none" && (
        <Field
          label={`${targetCurrency.tagName ?? "Tag"}${targetCurrency.tagSupport === "required" ? "" : " (optional)"}`}
          name="tag"
          errors={errors}
          register={register("tag")}
          inputMode="numeric"
          hint={
            targetCurrency.tagSupport === "required"
              ? "Required: funds sent to an exchange without it can be lost."
              : undefined
          }
        />
      )}
      <div className="grid gap-x-4 sm:grid-cols-2">
        <Field
          label="Your payout id (foreign_id)"
          name="foreign_id"
          errors={errors}
          register={register("foreign_id")}
        />
        <Field
          label="Customer reference (end_user_reference)"
          name="end_user_reference"
          errors={errors}
          register={register("end_user_reference")}
        />
      </div>
      <PartyFields side="sender" register={register as never} watch={watch as never} errors={errors} />
      <PartyFields
        side="receiver"
        register={register as never}
        watch={watch as never}
        errors={errors}
        allowSelf
      />
      {error && (
        <p role="alert" className="mt-3 text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
      {review ? (
        <section
          aria-labelledby="review"
          className="mt-4 rounded-md border border-indigo-300 p-4 dark:border-indigo-700"
        >
          <h2 id="review" className="font-semibold">
            Confirm the payout
          </h2>
          <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt>Sent to the address</dt>
            <dd className="font-mono">{displayAmount(review.sent, review.target)}</dd>
            <dt>Withdrawn</dt>
            <dd className="font-mono">{displayAmount(review.principal, review.source)}</dd>
            <dt>Withdrawal fee</dt>
            <dd className="font-mono">{displayAmount(review.withdrawal_fee, review.source)}</dd>
            <dt>Network fee</dt>
            <dd className="font-mono">{displayAmount(review.network_fee, review.source)}</dd>
            <dt className="font-semibold">Debited from your balance</dt>
            <dd className="font-mono font-semibold">{displayAmount(review.total_debit, review.source)}</dd>
          </dl>
          <div className="mt-3 flex gap-2">
            <button type="submit" disabled={isSubmitting} className={buttonClass}>
              {isSubmitting ? "Sending…" : "Confirm payout"}
            </button>
            <button type="button" className={secondaryButtonClass} onClick={() => setReview(null)}>
              Change something
            </button>
          </div>
        </section>
      ) : (
        <button type="submit" disabled={isSubmitting} className={`mt-4 ${buttonClass}`}>
          {isSubmitting ? "Checking…" : "Review payout"}
        </button>
      )}
    </form>
  );
}
