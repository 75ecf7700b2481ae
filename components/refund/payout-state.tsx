import { Notice } from "@/components/checkout/notice";
import type { RefundPageView } from "@/lib/refunds/refund-page-view";

/** Statuses after which the payout does not change any more: the page stops polling. */
export const FINAL_PAYOUT_STATUSES = ["confirmed", "error", "rejected", "declined"];

/** Where the claimed refund is: what happened, and what happens next. */
export function PayoutState({ view }: { view: RefundPageView }) {
  const { payout, claim, merchantName } = view;
  if (!payout || !claim) return null;
  const amount = `${payout.amount} ${payout.currency}`;
  const destination = (
    <p className="mt-2 break-all">
      To <span className="font-mono">{claim.address}</span>
      {claim.tag ? ` (tag ${claim.tag})` : ""}.
    </p>
  );
  const txid = payout.txid && (
    <p className="mt-2 break-all">
      Transaction ID: <span className="font-mono">{payout.txid}</span>
    </p>
  );
  if (payout.status === "confirmed")
    return (
      <Notice tone="success" title={`Refund sent: ${amount}`}>
        {destination}
        {txid}
        <p className="mt-2">The network has confirmed it. Nothing more to do.</p>
      </Notice>
    );
  if (FINAL_PAYOUT_STATUSES.includes(payout.status))
    return (
      <Notice tone="error" title="The refund could not be sent">
        <p>Nothing reached your address. Contact {merchantName} about your refund.</p>
      </Notice>
    );
  if (payout.status === "sending")
    return (
      <Notice tone="info" title={`Sent: ${amount}, waiting for confirmations`}>
        {destination}
        {txid}
        <p className="mt-2">This page updates by itself once the network confirms it.</p>
      </Notice>
    );
  if (payout.status === "pending")
    return (
      <Notice tone="info" title={`Waiting for ${merchantName} to approve the payout`}>
        {destination}
        <p className="mt-2">
          {merchantName} approves larger payouts by hand. You don&apos;t need to do anything: this page
          updates by itself.
        </p>
      </Notice>
    );
  return (
    <Notice tone="info" title={`Your refund of ${amount} is on its way`}>
      {destination}
      <p className="mt-2">It is being handed to the network. This page updates by itself.</p>
    </Notice>
  );
}
