import { SandboxBadge } from "@/components/ui/sandbox-badge";
import type { CheckoutView } from "@/lib/checkout/checkout-view";
import {
  customerAmount,
  customerCode,
  hasUriScheme,
  isStillOwed,
  networkName,
  shortAmount,
} from "@/lib/checkout/present";
import { CopyField } from "./copy-field";
import { Countdown } from "./countdown";
import { QrCopy } from "./qr-copy";

/** What to send and where: shown while the invoice is open and something is owed. */
export function PaymentInstructions({ view, isSandbox }: { view: CheckoutView; isSandbox: boolean }) {
  const isPartial = isStillOwed(view);
  const due = isPartial ? view.remaining_amount : view.sender_amount;
  return (
    <>
      <CopyField label={isPartial ? "Amount still due" : "Amount to send"} value={`${shortAmount(due)}`} />
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        {customerCode(view.sender_currency ?? "")} on the {networkName(view.sender_currency)} network. Your
        wallet&apos;s network fee comes on top: the amount above must arrive in full.
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
        <QrCopy
          // The address is in the URL so that a switch of coins never shows a cached QR of the old one.
          src={`/api/checkout/${view.token}/qr.svg?paid=${view.paid_amount}&to=${encodeURIComponent(view.address ?? "")}`}
          alt={`QR code for paying ${customerAmount(due, view.sender_currency)} to ${view.address}${isSandbox ? " (sandbox)" : ""}`}
          value={hasUriScheme(view.payment_uri) ? view.payment_uri! : (view.address ?? "")}
        />
        {hasUriScheme(view.payment_uri) && (
          <a
            href={view.payment_uri!}
            className="rounded-md border border-slate-300 px-4 py-2 font-medium hover:bg-slate-50 dark:border-slate-600 dark:hover:bg-slate-800"
          >
            Open in wallet
          </a>
        )}
      </div>
      {view.expires_at !== null && (
        <Countdown expiresAt={view.expires_at} serverTime={view.server_time} label="Time left to pay:" />
      )}
      {view.price_holds_until !== null && (
        <>
          <Countdown
            expiresAt={view.price_holds_until}
            serverTime={view.server_time}
            label="This price holds for:"
          />
          <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
            No deadline to pay. If nothing has arrived by then, the amount is worked out again at the rate of
            that moment.
          </p>
        </>
      )}
    </>
  );
}
