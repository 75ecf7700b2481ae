import "server-only";

import { SCALE } from "@/lib/money";

const WEI_PER_UNIT = 10n ** BigInt(18 - SCALE);

/** Wei in ledger units (10^-8 ETH), rounded up once: a cost is never booked smaller than it was. */
export const weiToLedgerUnits = (wei: bigint) => (wei + WEI_PER_UNIT - 1n) / WEI_PER_UNIT;
