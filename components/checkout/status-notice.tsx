import type { CheckoutView } from "@/lib/checkout/checkout-view";
import { customerAmount, isStillOwed, networkName, receivedText } from "@/lib/checkout/present";
import { Notice } from "./notice";

function Confirmations({ view }: { view: CheckoutView }) {
  const unconfirmed = view.payments.filter((p) => !p.is_confirmed);
  const required = view.confirmations_required;
  const count = Math.min(
    unconfirmed.length ? Math.min(...unconfirmed.map((p) => p.confirmations)) : required,
    required,
  );
  return (
    <>
      <p className="mt-2 font-medium">
        Confirmations: {count} of {required}
      </p>
      <progress className="mt-1 w-full" max={required} value={count}>
        {count} of {required}
      </progress>
    </>
  );
}

function Closed({ view }: { view: CheckoutView }) {
  const paid = receivedText(view.payments.filter((p) => p.is_confirmed && !p.is_late));
  const late = receivedText(view.payments.filter((p) => p.is_late));
  // A payment after the invoice closed: one message, never the "expired, pay again" one beside it.
  if (late !== "") {
    return (
      <Notice tone="info" title="Payment received after the invoice closed">
        <p>
          {late} arrived after this invoice {view.status === "cancelled" ? "was cancelled" : "expired"}. It is
          safe with {view.merchant_name}, who will be in touch about it. Please send nothing more to this
          address.
        </p>
      </Notice>
    );
  }
  const messages: Record<string, { title: string; body: string }> = {
    expired: {
      title: "This invoice has expired",
      body: "No payment arrived in time. If you sent one in the last few minutes, keep this page open: it shows here as soon as the network carries it, and the shop will be in touch about it. Otherwise, if you still want to pay, ask the shop for a new invoice; send nothing more to this address.",
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
    <Notice tone="error" title={message.title}>
      <p>{message.body}</p>
    </Notice>
  );
}

/**
 * The one status message for the invoice's state. What is still owed is said the moment a short
 * payment is seen, not after its confirmations; "you can close this page" only once nothing is owed.
 */
export function StatusNotice({ view }: { view: CheckoutView }) {
  // The coin of the latest payment: one sent before a switch of coins moves on its own network.
  const network = networkName(view.payments.at(-1)?.currency ?? view.sender_currency);
  if (view.status === "pending" && view.status_reason === "payment_removed") {
    return (
      <Notice tone="warning" title="Your payment is no longer on the network">
        <p>
          The {network} network replaced the block that carried it, so it is not counted. If your wallet shows
          it as dropped, send it again; if it shows it as pending, wait for it.
        </p>
      </Notice>
    );
  }
  const held = view.payments.filter((p) => p.is_held);
  if (held.length > 0 && view.status === "processing") {
    return (
      <Notice tone="info" title="Payment received, being checked">
        <p>
          {receivedText(held)} reached the {network} network and has its confirmations. {view.merchant_name}{" "}
          checks some payments before accepting them; this one is waiting for that check. There is nothing
          more to do or to send: {view.merchant_name} will contact you if anything is needed.
        </p>
      </Notice>
    );
  }
  if (isStillOwed(view)) {
    return (
      <Notice tone="warning" title="Not paid in full yet">
        <p>
          Received so far: {receivedText(view.payments)}. Send the remaining{" "}
          <strong>{customerAmount(view.remaining_amount, view.sender_currency)}</strong> to the same address
          below.
        </p>
        {view.status === "processing" && <Confirmations view={view} />}
      </Notice>
    );
  }
  if (view.status === "processing") {
    return (
      <Notice tone="info" title="Payment received">
        <p>
          {receivedText(view.payments)} seen on the {network} network. It settles after{" "}
          {view.confirmations_required} confirmations.
        </p>
        <Confirmations view={view} />
        <p className="mt-2">You can close this page: the shop is told when the payment is confirmed.</p>
      </Notice>
    );
  }
  if (view.status === "confirmed") {
    return (
      <Notice tone="success" title="Invoice paid">
        <p>{receivedText(view.payments.filter((p) => p.is_confirmed))} received and confirmed. Thank you.</p>
        {view.status_reason === "overpaid" && (
          <p className="mt-1">
            You sent {customerAmount(view.overpaid_amount, view.sender_currency)} more than was due. Refund
            instructions for the difference were sent by e-mail.
          </p>
        )}
      </Notice>
    );
  }
  if (view.status === "failed" || view.status === "cancelled") return <Closed view={view} />;
  return null;
}
