import "server-only";

import { formatPercent } from "@/lib/money";
import type { TransactionInfo } from "@/lib/schemas/transactions";

/** One entry of a transactions/info object's `transactions` list (spec 2.6). */
export type TransactionEntry = TransactionInfo["transactions"][number];

/** A spread in parts per million, as the percentage the wire shows; null when none was applied. */
export const spreadPercent = (ppm: number | null) => (ppm === null ? null : formatPercent(ppm));

/** Confirmations of a chain transaction at `height` with the network's tip at `tip` (0 until mined). */
export const confirmationsOf = (height: number | null, tip: number | null) =>
  height === null || tip === null ? 0 : Math.max(0, tip - height + 1);
