import "server-only";

import { WITHDRAWAL_APPROVAL_EXPIRY_QUEUE, WITHDRAWAL_BROADCAST_QUEUE } from "@/lib/jobs/queues";
import { type ChangeJob, THIS_ID } from "@/lib/transactions/record-change";

/** Sends an accepted withdrawal to its network; one queued per withdrawal. */
export const broadcastJob: ChangeJob = {
  queue: WITHDRAWAL_BROADCAST_QUEUE,
  payload: { withdrawalId: THIS_ID },
  dedupeKey: ["withdrawal-broadcast:", THIS_ID],
};

/** Declines a withdrawal that waited past `expiresAt` for an approver. */
export const approvalExpiryJob = (expiresAt: Date): ChangeJob => ({
  queue: WITHDRAWAL_APPROVAL_EXPIRY_QUEUE,
  payload: { withdrawalId: THIS_ID },
  runAt: expiresAt,
  dedupeKey: ["withdrawal-approval-expiry:", THIS_ID],
});
