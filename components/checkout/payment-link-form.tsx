"use client";

import { type FormEvent, useState } from "react";
import { decimalFromInput } from "@/components/forms/decimal-input";
import { RequiredMark } from "@/components/forms/field";
import { formatMoney } from "@/lib/format-money";
import type { PaymentLinkPageView } from "@/lib/payment-links/payment-link-page-view";
import {
  CustomerFields,
  type CustomerKind,
  customerInputClass,
  type FieldErrors,
  fieldErrorsOf,
  senderOf,
} from "./customer-fields";

/** "From 10.00 EUR to 500.00 EUR", "At least 10.00 EUR": the range a customer may enter. */
function rangeText(view: PaymentLinkPageView): string {
  const minimum = formatMoney(view.min_amount, view.currency).exact;
  if (view.max_amount === null) return `At least ${minimum}`;
  return `From ${minimum} to ${formatMoney(view.max_amount, view.currency).exact}`;
}

/**
 * The payment link's form: the amount (only when the link leaves it to the customer) and the
 * customer's details, sent to POST /api/link/<token>/start; on success the customer goes on to the new
 * invoice's checkout (/pay/<token>). Without JavaScript the form posts to /link/<token>/start, which
 * redirects the same way.
 */
export function PaymentLinkForm({
  view,
  initialError,
}: {
  view: PaymentLinkPageView;
  initialError: string | null;
}) {
  const [kind, setKind] = useState<CustomerKind>(view.sender_types[0] ?? "natural");
  const [errors, setErrors] = useState<FieldErrors>({});
  const [error, setError] = useState<string | null>(initialError);
  const [isSending, setIsSending] = useState(false);
  const isOpenAmount = view.amount === null;
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const typed = String(new FormData(form).get("amount") ?? "").trim();
    const body = {
      ...(isOpenAmount && typed !== "" && { amount: decimalFromInput(typed) }),
      ...senderOf(form),
    };
    setIsSending(true);
    setError(null);
    try {
      const response = await fetch(`/api/link/${view.token}/start`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      const answer = await response.json();
      if (response.ok) {
        window.location.assign(`/pay/${answer.token}`);
        return;
      }
      const fields = fieldErrorsOf(answer);
      if (isOpenAmount && typed === "" && !fields.amount && Object.keys(fields).length === 0)
        fields.amount = "Enter the amount you want to pay.";
      setErrors(fields);
      setError(
        Object.keys(fields).length === 0
          ? (answer.error ?? "That did not work. Please try again.")
          : "Please check the highlighted fields.",
      );
      setIsSending(false);
    } catch {
      setError("We could not reach the payment service. Check your connection and try again.");
      setIsSending(false);
    }
  };
  return (
    <form method="post" action={`/link/${view.token}/start`} onSubmit={submit} noValidate className="mt-6">
      {isOpenAmount && (
        <section aria-labelledby="your-amount">
          <h2 id="your-amount" className="text-lg font-semibold">
            Amount
          </h2>
          <div className="mt-3">
            <label htmlFor="link-amount" className="block text-sm font-medium">
              Amount to pay in {view.currency}
              <RequiredMark />
            </label>
            <input
              id="link-amount"
              name="amount"
              inputMode="decimal"
              autoComplete="off"
              aria-required="true"
              aria-invalid={errors.amount ? true : undefined}
              aria-describedby={`link-amount-hint${errors.amount ? " link-amount-error" : ""}`}
              className={`${customerInputClass} ${errors.amount ? "border-red-600 dark:border-red-400" : ""}`}
            />
            <p id="link-amount-hint" className="mt-1 text-xs text-slate-600 dark:text-slate-400">
              {rangeText(view)}, with up to {view.precision} decimals. A comma works as the decimal mark.
            </p>
            {errors.amount && (
              <p id="link-amount-error" className="mt-1 text-sm text-red-700 dark:text-red-300">
                {errors.amount}
              </p>
            )}
          </div>
        </section>
      )}
      <section aria-labelledby="your-details" className="mt-6">
        <h2 id="your-details" className="text-lg font-semibold">
          Your details
        </h2>
        <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
          Payment rules require {view.merchant_name} to know who pays. Your details go to {view.merchant_name}{" "}
          with this payment; you choose the coin and get the address to pay to next.
        </p>
        <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
          Fields marked <span aria-hidden="true">*</span>
          <span className="sr-only">with a star</span> are required.
        </p>
        <CustomerFields kinds={view.sender_types} kind={kind} onKind={setKind} errors={errors} />
      </section>
      <button
        type="submit"
        disabled={isSending}
        className="mt-4 rounded-md bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-800 disabled:opacity-60"
      >
        {isSending ? "Preparing your payment…" : "Continue to payment"}
      </button>
      <p role="alert" className="mt-3 text-sm text-red-700 dark:text-red-300">
        {error}
      </p>
    </form>
  );
}
