"use client";

import { useEffect, useState } from "react";
import type { CheckoutView } from "@/lib/checkout/checkout-view";
import { isHttpUrl, isStillOwed } from "@/lib/checkout/present";
import { AmountHeader } from "./amount-header";
import { CurrencyPicker } from "./currency-picker";
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
}: {
  initial: CheckoutView;
  sandboxCurrencies: readonly string[];
  choiceError?: string | null;
}) {
  const [view, setView] = useLiveInvoice(initial);
  const isSandbox = view.sender_currency !== null && sandboxCurrencies.includes(view.sender_currency);
  const isPayable = view.address !== null && (view.status === "pending" || isStillOwed(view));
  return (
    <>
      <AmountHeader view={view} />
      <div aria-live="polite" data-testid="status-notices">
        <StatusNotice view={view} />
      </div>
      {view.is_awaiting_currency && (
        <CurrencyPicker view={view} onFixed={setView} initialError={choiceError} />
      )}
      {isPayable && <PaymentInstructions view={view} isSandbox={isSandbox} />}
      {view.status === "confirmed" && <PaidActions view={view} />}
      {(view.status === "failed" || view.status === "cancelled") && (
        <ReturnLink href={view.url_failed} label={`Back to ${view.merchant_name}`} />
      )}
    </>
  );
}
