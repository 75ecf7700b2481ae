"use client";

import { useEffect, useState } from "react";
import { SandboxBadge } from "@/components/ui/sandbox-badge";
import type { CheckoutView } from "@/lib/checkout/checkout-view";
import { displayAmount, isHttpUrl, networkName, shortAmount } from "@/lib/checkout/present";
import { CopyField } from "./copy-field";
import { Countdown } from "./countdown";
import { CurrencyPicker } from "./currency-picker";
import { useLiveInvoice } from "./use-live-invoice";

const REDIRECT_SECONDS = 5;

function Notice({
  tone,
  title,
  children,
}: {
  tone: "info" | "success" | "warning" | "error";
  title: string;
  children?: React.ReactNode;
}) {
  const tones = {
    info: "border-sky-300 bg-sky-50 text-sky-950 dark:border-sky-800 dark:bg-sky-950 dark:text-sky-100",
    success:
      "border-emerald-300 bg-emerald-50 text-emerald-950 dark:border-emerald-800 dark:bg-emerald-950 dark:text-emerald-100",
    warning:
      "border-amber-300 bg-amber-50 text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100",
    error: "border-red-300 bg-red-50 text-red-950 dark:border-red-800 dark:bg-red-950 dark:text-red-100",
  };
  return (
    <div className={`mt-4 rounded-md border px-4 py-3 ${tones[tone]}`}>
      <h2 className="font-semibold">{title}</h2>
      {children && <div className="mt-1 text-sm">{children}</div>}
    </div>
  );
}

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

function Paid({ view }: { view: CheckoutView }) {
  const [left, setLeft] = useState(REDIRECT_SECONDS);
  const canRedirect = isHttpUrl(view.url_success);
  useEffect(() => {
    if (!canRedirect) return;
    const timer = setInterval(() => setLeft((s) => s - 1), 1_000);
    return () => clearInterval(timer);
  }, [canRedirect]);
  useEffect(() => {
    if (canRedirect && left <= 0) window.location.assign(view.url_success);
  }, [canRedirect, left, view.url_success]);
  const isOverpaid = view.status_reason === "overpaid";
  return (
    <>
      <Notice tone="success" title="Invoice paid">
        <p>{displayAmount(view.confirmed_amount, view.sender_currency)} received and confirmed. Thank you.</p>
        {isOverpaid && (
          <p className="mt-1">
            You sent {displayAmount(view.overpaid_amount, view.sender_currency)} more than was due. Refund
            instructions for the difference were sent by e-mail.
          </p>
        )}
      </Notice>
      {canRedirect && (
        <p className="mt-4 text-sm" aria-live="polite">
          Returning to {view.merchant_name} in {Math.max(0, left)} s…
        </p>
      )}
      <ReturnLink href={view.url_success} label={`Return to ${view.merchant_name}`} />
    </>
  );
}

function Failed({ view }: { view: CheckoutView }) {
  const paid = displayAmount(view.confirmed_amount, view.sender_currency);
  const messages: Record<string, { title: string; body: string }> = {
    expired: {
      title: "This invoice has expired",
      body: "No payment arrived in time. If you still want to pay, ask the shop for a new invoice.",
    },
    underpaid: {
      title: "The payment was less than the amount due",
      body: `We received ${paid}, which does not cover the invoice. Instructions for a full refund were sent by e-mail; please do not send the rest to this address.`,
    },
    partially_paid: {
      title: "This invoice expired before it was paid in full",
      body: `We received ${paid}. Instructions for a full refund were sent by e-mail.`,
    },
    processing_expired: {
      title: "The payment was not confirmed in time",
      body: `The network did not confirm the payment within 24 hours, so this invoice closed. If it confirms later, it is credited to ${view.merchant_name}, who will contact you.`,
    },
    cancelled_by_merchant: {
      title: "This invoice was cancelled",
      body: `${view.merchant_name} cancelled it. Nothing more is due.`,
    },
  };
  const message = messages[view.status_reason ?? ""] ?? {
    title: "This invoice is closed",
    body: "Nothing more can be paid to it.",
  };
  return (
    <>
      <Notice tone="error" title={message.title}>
        <p>{message.body}</p>
        {view.payments.some((p) => p.is_late) && (
          <p className="mt-1">
            A payment arrived after the invoice closed. It is safe with {view.merchant_name}, who will contact
            you.
          </p>
        )}
      </Notice>
      <ReturnLink href={view.url_failed} label={`Back to ${view.merchant_name}`} />
    </>
  );
}

function PaymentProgress({ view }: { view: CheckoutView }) {
  const unconfirmed = view.payments.filter((p) => !p.is_confirmed);
  const confirmations = unconfirmed.length
    ? Math.min(...unconfirmed.map((p) => p.confirmations))
    : view.confirmations_required;
  return (
    <Notice tone="info" title="Payment received">
      <p>
        {displayAmount(view.paid_amount, view.sender_currency)} seen on the{" "}
        {networkName(view.sender_currency)} network. It settles after {view.confirmations_required}{" "}
        confirmations.
      </p>
      <p className="mt-2 font-medium">
        Confirmations: {Math.min(confirmations, view.confirmations_required)} of {view.confirmations_required}
      </p>
      <progress
        className="mt-1 w-full"
        max={view.confirmations_required}
        value={Math.min(confirmations, view.confirmations_required)}
      >
        {confirmations} of {view.confirmations_required}
      </progress>
      <p className="mt-2">You can close this page: the shop is told when the payment is confirmed.</p>
    </Notice>
  );
}

function PaymentInstructions({ view, isSandbox }: { view: CheckoutView; isSandbox: boolean }) {
  const isPartial = Number(view.paid_amount) > 0;
  const due = isPartial ? view.remaining_amount : view.sender_amount;
  return (
    <>
      {isPartial && (
        <Notice tone="warning" title="Not paid in full yet">
          <p>
            Received so far: {displayAmount(view.paid_amount, view.sender_currency)}. Send the remaining{" "}
            {displayAmount(view.remaining_amount, view.sender_currency)} to the same address.
          </p>
        </Notice>
      )}
      <CopyField label={isPartial ? "Amount still due" : "Amount to send"} value={`${shortAmount(due)}`} />
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        {view.sender_currency} on the {networkName(view.sender_currency)} network. Your wallet&apos;s network
        fee comes on top: the amount above must arrive in full.
      </p>
      <CopyField label="Address" value={view.address ?? ""} badge={isSandbox && <SandboxBadge />} />
      {view.tag && (
        <CopyField
          label={view.tag_name ? view.tag_name[0]!.toUpperCase() + view.tag_name.slice(1) : "Tag"}
          value={view.tag}
          hint={`Include this ${view.tag_name ?? "tag"} with your payment, or the funds cannot be matched to this invoice.`}
        />
      )}
      <div className="mt-4 flex flex-col items-center gap-3 sm:flex-row sm:items-start">
        {/* biome-ignore lint/performance/noImgElement: a server-drawn SVG, no optimisation to gain */}
        <img
          src={`/api/checkout/${view.token}/qr.svg?paid=${view.paid_amount}`}
          alt={`QR code for paying ${displayAmount(due, view.sender_currency)} to ${view.address}${isSandbox ? " (sandbox)" : ""}`}
          width={192}
          height={192}
          className="rounded-md bg-white p-1"
        />
        {view.payment_uri && (
          <a
            href={view.payment_uri}
            className="rounded-md border border-slate-300 px-4 py-2 font-medium hover:bg-slate-50 dark:border-slate-600 dark:hover:bg-slate-800"
          >
            Open in wallet
          </a>
        )}
      </div>
      {view.expires_at !== null && (
        <Countdown expiresAt={view.expires_at} serverTime={view.server_time} label="Time left to pay:" />
      )}
    </>
  );
}

/**
 * `sandboxCurrencies`: the currencies that move on the sandbox chain here, whose addresses are
 * labelled "sandbox" (none in production).
 */
export function CheckoutClient({
  initial,
  sandboxCurrencies,
}: {
  initial: CheckoutView;
  sandboxCurrencies: readonly string[];
}) {
  const [view, setView] = useLiveInvoice(initial);
  const isSandbox = view.sender_currency !== null && sandboxCurrencies.includes(view.sender_currency);
  return (
    <div aria-live="polite" aria-atomic="false">
      {view.is_awaiting_currency && <CurrencyPicker view={view} onFixed={setView} />}
      {view.status === "pending" && view.status_reason === "payment_removed" && (
        <Notice tone="warning" title="Your payment is no longer on the network">
          <p>
            The {networkName(view.sender_currency)} network replaced the block that carried it, so it is not
            counted. If your wallet shows it as dropped, send it again; if it shows it as pending, wait for
            it.
          </p>
        </Notice>
      )}
      {view.status === "pending" && view.address && <PaymentInstructions view={view} isSandbox={isSandbox} />}
      {view.status === "processing" && <PaymentProgress view={view} />}
      {view.status === "confirmed" && <Paid view={view} />}
      {(view.status === "failed" || view.status === "cancelled") && <Failed view={view} />}
    </div>
  );
}
