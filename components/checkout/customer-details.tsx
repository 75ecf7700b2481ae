"use client";

import { type FormEvent, useState } from "react";
import type { CheckoutView } from "@/lib/checkout/checkout-view";
import { Countdown } from "./countdown";
import {
  CustomerFields,
  type CustomerKind,
  type FieldErrors,
  fieldErrorsOf,
  senderOf,
} from "./customer-fields";

/**
 * The customer's own details, asked before the address when the merchant did not give them: the
 * compliance fields of spec 2.1 (a person's name and date of birth, or a company's legal name and
 * country), sent to POST /api/checkout/<token>/customer. Without JavaScript the form posts to
 * /pay/<token>/customer, which redirects back to the page.
 */
export function CustomerDetails({
  view,
  onGiven,
  initialError = null,
}: {
  view: CheckoutView;
  onGiven: (view: CheckoutView) => void;
  initialError?: string | null;
}) {
  const [kind, setKind] = useState<CustomerKind>("natural");
  const [errors, setErrors] = useState<FieldErrors>({});
  const [error, setError] = useState<string | null>(initialError);
  const [isSending, setIsSending] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setIsSending(true);
    setError(null);
    try {
      const response = await fetch(`/api/checkout/${view.token}/customer`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(senderOf(event.currentTarget)),
      });
      const body = await response.json();
      if (response.ok) {
        onGiven(body);
        return;
      }
      const fields = fieldErrorsOf(body);
      setErrors(fields);
      if (Object.keys(fields).length === 0) setError(body.error ?? "That did not work. Please try again.");
    } catch {
      setError("We could not reach the payment service. Check your connection and try again.");
    } finally {
      setIsSending(false);
    }
  };
  return (
    <section aria-labelledby="your-details" className="mt-6">
      <h2 id="your-details" className="text-lg font-semibold">
        Your details
      </h2>
      <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
        Payment rules require {view.merchant_name} to know who pays. Your details go to {view.merchant_name}{" "}
        with this payment; the address to pay to is shown next.
      </p>
      <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
        Fields marked <span aria-hidden="true">*</span>
        <span className="sr-only">with a star</span> are required.
      </p>
      <form method="post" action={`/pay/${view.token}/customer`} onSubmit={submit} noValidate>
        <CustomerFields kinds={["natural", "legal"]} kind={kind} onKind={setKind} errors={errors} />
        <button
          type="submit"
          disabled={isSending}
          className="mt-4 rounded-md bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-800 disabled:opacity-60"
        >
          {isSending ? "Saving your details…" : "Continue to payment"}
        </button>
      </form>
      {error && (
        <p role="alert" className="mt-3 text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
      {view.expires_at !== null && (
        <Countdown expiresAt={view.expires_at} serverTime={view.server_time} label="Time left to pay:" />
      )}
    </section>
  );
}
