"use client";

import { useEffect, useRef, useState } from "react";
import type { CheckoutView } from "@/lib/checkout/checkout-view";
import { customerAmount, isHttpUrl, isStillOwed } from "@/lib/checkout/present";
import { AmountHeader } from "./amount-header";
import { CurrencyPicker } from "./currency-picker";
import { CurrencySwitch } from "./currency-switch";
import { CustomerDetails } from "./customer-details";
import { PaymentInstructions } from "./payment-instructions";
import { Receipt } from "./receipt";
import { StatusNotice } from "./status-notice";
import { useLiveInvoice } from "./use-live-invoice";

const REDIRECT_SECONDS = 5;

function ReturnLink({ href, label }: { href: string; label: string }) {
  if (!isHttpUrl(href)) return null;
  return (
    <a
      href={href}
      className="mt-4 inline-block rounded-md bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-800"
    >
      {label}
    </a>
  );
}

/** After payment: back to the shop, by itself after a few seconds when the shop gave a URL. */
function PaidActions({ view }: { view: CheckoutView }) {
  const [left, setLeft] = useState(REDIRECT_SECONDS);
  const [isStaying, setIsStaying] = useState(false);
  const canRedirect = isHttpUrl(view.url_success) && !isStaying;
  useEffect(() => {
    if (!canRedirect) return;
    const timer = setInterval(() => setLeft((s) => s - 1), 1_000);
    return () => clearInterval(timer);
  }, [canRedirect]);
  useEffect(() => {
    if (canRedirect && left <= 0) window.location.assign(view.url_success);
  }, [canRedirect, left, view.url_success]);
  return (
    <>
      {/* Not a live region: a second-by-second count would be read out at every tick. */}
      {/* The customer can stop the automatic return, to read or print the receipt (WCAG 2.2.1). */}
      {canRedirect && (
        <p className="mt-4 text-sm">
          Returning to {view.merchant_name} in {Math.max(0, left)} s…{" "}
          <button type="button" onClick={() => setIsStaying(true)} className="font-medium underline">
            Stay on this page
          </button>
        </p>
      )}
      <ReturnLink href={view.url_success} label={`Return to ${view.merchant_name}`} />
      <Receipt view={view} />
    </>
  );
}

/**
 * `sandboxCurrencies`: the currencies that move on the sandbox chain here, whose addresses are
 * labelled "sandbox" (none in production). Only the status notice is a live region: the amounts,
 * address and countdown change too, and announcing each of them would drown the news.
 */
export function CheckoutClient({
  initial,
  sandboxCurrencies,
  choiceError = null,
  detailsError = null,
}: {
  initial: CheckoutView;
  sandboxCurrencies: readonly string[];
  choiceError?: string | null;
  /** A refusal of the no-JavaScript details form, shown after its redirect. */
  detailsError?: string | null;
}) {
  const [view, setView] = useLiveInvoice(initial);
  const [isSwitching, setIsSwitching] = useState(false);
  // What a switch of coins told the customer, for the address it was said about (announced once).
  const [switched, setSwitched] = useState<{ address: string; text: string } | null>(null);
  const switchButton = useRef<HTMLButtonElement>(null);
  const amount = useRef<HTMLDivElement>(null);
  const isSandbox = view.sender_currency !== null && sandboxCurrencies.includes(view.sender_currency);
  const isPayable = view.address !== null && (view.status === "pending" || isStillOwed(view));
  // A payment seen meanwhile (another tab, the wallet was quicker) closes the list by itself.
  const isChoosing = isSwitching && view.can_switch_currency;
  const canSwitch = view.can_switch_currency && !isSwitching;
  const closeSwitch = () => {
    setIsSwitching(false);
    // The button is back once the list closes: focus returns where the customer left.
    requestAnimationFrame(() => switchButton.current?.focus());
  };
  const onSwitched = (next: CheckoutView) => {
    setView(next);
    setIsSwitching(false);
    setSwitched({
      address: next.address ?? "",
      text: `Now paying with ${customerAmount(next.sender_amount, next.sender_currency)}, to the new address below.`,
    });
    requestAnimationFrame(() => amount.current?.focus());
  };
  const isSwitchNewsCurrent =
    switched !== null && switched.address === view.address && view.status === "pending";
  return (
    <>
      <div
        ref={amount}
        tabIndex={-1}
        className="outline-none focus-visible:ring-2 focus-visible:ring-indigo-600"
      >
        <AmountHeader view={view} />
      </div>
      {canSwitch && (
        <button
          ref={switchButton}
          type="button"
          onClick={() => setIsSwitching(true)}
          className="mt-2 text-sm font-medium text-indigo-700 underline hover:text-indigo-900 dark:text-indigo-300"
        >
          Pay with another currency
        </button>
      )}
      <div aria-live="polite" data-testid="status-notices">
        {isSwitchNewsCurrent && (
          <p className="mt-3 text-sm" data-testid="switch-news">
            {switched.text}
          </p>
        )}
        <StatusNotice view={view} />
      </div>
      {view.needs_customer_details && (
        <CustomerDetails view={view} onGiven={setView} initialError={detailsError} />
      )}
      {view.is_awaiting_currency && !view.needs_customer_details && (
        <CurrencyPicker view={view} onFixed={setView} initialError={choiceError} />
      )}
      {isChoosing && <CurrencySwitch view={view} onSwitched={onSwitched} onClose={closeSwitch} />}
      {isPayable && !isChoosing && <PaymentInstructions view={view} isSandbox={isSandbox} />}
      {view.status === "confirmed" && <PaidActions view={view} />}
      {(view.status === "failed" || view.status === "cancelled") && (
        <ReturnLink href={view.url_failed} label={`Back to ${view.merchant_name}`} />
      )}
    </>
  );
}
