import { withSession } from "@/lib/api/with-session";
import { listBalances } from "@/lib/ledger/list-balances";
import { volumeByDay } from "@/lib/ledger/volume-by-day";
import { formatAmount } from "@/lib/money";

export const GET = withSession({ permission: "dashboard.view" }, async ({ db, session }) => ({
  balances: (await listBalances(db, session.merchantId)).map((b) => ({
    ...b,
    balance: formatAmount(b.balance),
  })),
  volume: (await volumeByDay(db, session.merchantId)).map((v) => ({
    ...v,
    incoming: formatAmount(v.incoming),
    outgoing: formatAmount(v.outgoing),
  })),
}));
