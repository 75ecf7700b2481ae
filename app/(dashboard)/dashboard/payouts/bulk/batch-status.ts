import type { BatchStatus } from "@/components/query/use-payout-batches";

/** A bulk payout's status in a merchant's words. */
export function batchStatusText(status: BatchStatus): string {
  switch (status) {
    case "awaiting_approval":
      return "Waiting for approval";
    case "declined":
      return "Declined (funds returned)";
    case "processing":
      return "Sending";
    case "completed":
      return "Done";
  }
}
