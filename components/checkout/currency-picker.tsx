"use client";

import { type ReactNode, type Ref, useState } from "react";
import type { CheckoutView } from "@/lib/checkout/checkout-view";
import { customerCode, displayDigits } from "@/lib/checkout/present";
import { Countdown } from "./countdown";

/**
 * The customer's choice of how to pay: each currency with what it costs now. Choosing locks the rate.
 * `choices` defaults to the view's (offered while no coin is chosen); "Pay with another currency"
 * passes the ones it fetched, a heading it moves focus to, and its way back (`children`).
 */
export function CurrencyPicker({
  view,
  onFixed,
  initialError = null,
  choices = view.currencies,
  heading = "Pay with",
  headingRef,
  children,
}: {
  view: CheckoutView;
  onFixed: (view: CheckoutView) => void;
  /** A refusal of the no-JavaScript form, shown after its redirect. */
  initialError?: string | null;
  choices?: CheckoutView["currencies"];
  heading?: string;
  headingRef?: Ref<HTMLHeadingElement>;
  children?: ReactNode;
}) {
  const [pending, setPending] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(initialError);
  const choose = async (currency: string) => {
    setPending(currency);
    setError(null);
    try {
      const response = await fetch(`/api/checkout/${view.token}/currency`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ currency }),
      });
      const body = await response.json();
      if (!response.ok) {
        setError(
          (Object.values(body.errors ?? {})[0] as string) ??
            body.error ??
            "That did not work. Please try again.",
        );
        return;
      }
      onFixed(body);
    } catch {
      setError("We could not reach the payment service. Check your connection and try again.");
    } finally {
      setPending(null);
    }
  };
  return (
    <section aria-labelledby="pay-with" className="mt-6">
      <h2 id="pay-with" ref={headingRef} tabIndex={-1} className="text-lg font-semibold">
        {heading}
      </h2>
      {/* Without JavaScript the buttons submit this form (app/pay/[token]/currency/route.ts). */}
      <form method="post" action={`/pay/${view.token}/currency`}>
        <ul className="mt-2 grid gap-2">
          {choices.map((choice) => (
            <li key={choice.currency}>
              <button
                type="submit"
                name="currency"
                value={choice.currency}
                disabled={!choice.is_available || pending !== null}
                onClick={(event) => {
                  event.preventDefault();
                  void choose(choice.currency);
                }}
                aria-describedby={choice.is_available ? undefined : `why-${choice.currency}`}
                className="flex w-full items-center justify-between gap-3 rounded-md border border-slate-300 px-4 py-3 text-left hover:border-indigo-600 disabled:cursor-not-allowed disabled:opacity-60 dark:border-slate-600"
              >
                <span>
                  <span className="font-semibold">{customerCode(choice.currency)}</span>{" "}
                  <span className="text-sm text-slate-600 dark:text-slate-400">{choice.name}</span>
                </span>
                <span className="font-mono text-sm">
                  {pending === choice.currency
                    ? "Locking the rate…"
                    : choice.amount === null
                      ? ""
                      : displayDigits(choice.amount, choice.currency)}
                </span>
              </button>
              {!choice.is_available && (
                <p id={`why-${choice.currency}`} className="mt-1 text-xs text-slate-600 dark:text-slate-400">
                  {choice.reason}
                </p>
              )}
            </li>
          ))}
        </ul>
      </form>
      {children}
      {error && (
        <p role="alert" className="mt-3 text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
      {view.expires_at === null && view.rate_lock_seconds !== null && (
        <p className="mt-3 text-sm text-slate-600 dark:text-slate-400">
          No deadline to pay. The price you choose holds for {Math.round(view.rate_lock_seconds / 60)}{" "}
          minutes.
        </p>
      )}
      {view.expires_at !== null && (
        <Countdown
          expiresAt={view.expires_at}
          serverTime={view.server_time}
          // A timer invoice is `pending` from creation: its clock is the time to pay, not to choose.
          label={view.status === "pending" ? "Time left to pay:" : "Time left to choose:"}
        />
      )}
    </section>
  );
}
