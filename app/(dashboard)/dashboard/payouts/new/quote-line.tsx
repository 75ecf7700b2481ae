"use client";

import { useEffect, useState } from "react";
import { dashboardAmount } from "@/components/dashboard/dashboard-amount";
import { errorMessage } from "@/components/forms/form-error";
import { type QuoteInput, useQuote } from "@/components/query/use-payouts";
import { findCurrency } from "@/lib/currencies/registry";
import { formatRateValue } from "@/lib/format-money";
import { OverLimitNotice } from "./payout-review";

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

/** What the amount typed would send and debit, asked for a moment after typing stops. */
export function QuoteLine({ tagProblem, ...input }: QuoteInput & { tagProblem?: string }) {
  const debounced = useDebounced(input, 400);
  const quote = useQuote(
    debounced,
    /^\d+(\.\d+)?$/.test(debounced.amountValue) && findCurrency(debounced.target)?.kind === "crypto",
  );
  return (
    <>
      {quote.data && (
        <p className="mt-1 text-sm text-slate-700 dark:text-slate-300" aria-live="polite">
          Sends {dashboardAmount(quote.data.sent, quote.data.target)}; debits{" "}
          {dashboardAmount(quote.data.total_debit, quote.data.source)} including fees
          {quote.data.rate
            ? ` (rate ${formatRateValue(quote.data.rate).text} ${quote.data.target} per ${quote.data.source})`
            : ""}
          .
        </p>
      )}
      {quote.data?.is_insufficient && (
        <p className="mt-1 text-sm font-medium text-red-800 dark:text-red-300">
          Not enough funds: this debits {dashboardAmount(quote.data.total_debit, quote.data.source)}, your
          available balance is {dashboardAmount(quote.data.available, quote.data.source)}.
        </p>
      )}
      {quote.data?.over_limit && !quote.data.is_insufficient && (
        <OverLimitNotice text={quote.data.over_limit} />
      )}
      {tagProblem && <p className="mt-1 text-sm font-medium text-red-800 dark:text-red-300">{tagProblem}</p>}
      {quote.error && (
        <p className="mt-1 text-sm text-amber-800 dark:text-amber-300">{errorMessage(quote.error)}</p>
      )}
    </>
  );
}
