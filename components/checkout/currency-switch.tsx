"use client";

import { useEffect, useRef, useState } from "react";
import type { CheckoutView } from "@/lib/checkout/checkout-view";
import { customerCode } from "@/lib/checkout/present";
import { CurrencyPicker } from "./currency-picker";

type Choices = CheckoutView["currencies"];

/**
 * "Pay with another currency": the list of coins, fetched when asked for (the live view
 * does not carry prices in every coin), without the one being paid with. Focus moves to the list's
 * heading when it opens and back to the button that opened it when the customer keeps their coin;
 * after a switch the parent moves it to the new amount.
 */
export function CurrencySwitch({
  view,
  onSwitched,
  onClose,
}: {
  view: CheckoutView;
  onSwitched: (view: CheckoutView) => void;
  onClose: () => void;
}) {
  const [choices, setChoices] = useState<Choices | null>(null);
  const [error, setError] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const current = view.sender_currency;
  useEffect(() => {
    let isCurrent = true;
    fetch(`/api/checkout/${view.token}/currency`, { cache: "no-store" })
      .then(async (response) => {
        if (!response.ok) throw new Error(String(response.status));
        const body = (await response.json()) as { currencies: Choices };
        if (isCurrent) setChoices(body.currencies.filter((c) => c.currency !== current));
      })
      .catch(() => {
        if (isCurrent)
          setError("We could not load the other currencies. Check your connection and try again.");
      });
    return () => {
      isCurrent = false;
    };
  }, [view.token, current]);
  useEffect(() => {
    if (choices !== null) heading.current?.focus();
  }, [choices]);
  const back = (
    <button
      type="button"
      onClick={onClose}
      className="mt-3 rounded-md border border-slate-300 px-4 py-2 font-medium hover:bg-slate-50 dark:border-slate-600 dark:hover:bg-slate-800"
    >
      Keep paying with {customerCode(current ?? "")}
    </button>
  );
  if (choices === null) {
    return (
      <section aria-label="Other currencies" className="mt-6" aria-busy={error === null}>
        <p
          className={error ? "text-sm text-red-700 dark:text-red-300" : "text-sm"}
          role={error ? "alert" : undefined}
        >
          {error ?? "Loading the other currencies…"}
        </p>
        {back}
      </section>
    );
  }
  return (
    <CurrencyPicker
      view={view}
      choices={choices}
      onFixed={onSwitched}
      heading="Pay with another currency"
      headingRef={heading}
    >
      {back}
    </CurrencyPicker>
  );
}
