"use client";

import { useRef, useState } from "react";
import { useChoiceMadeBeforeHydration } from "@/components/forms/use-choice-made-before-hydration";
import { PayoutForm } from "./payout-form";
import type { PayoutPrefill } from "./payout-values";

export function PayoutPage({
  sandboxCurrencies,
  merchantName,
  prefill = {},
}: {
  sandboxCurrencies: readonly string[];
  merchantName: string;
  prefill?: PayoutPrefill;
}) {
  const [kind, setKind] = useState<"withdrawal" | "instant">("withdrawal");
  const kindGroup = useRef<HTMLFieldSetElement>(null);
  useChoiceMadeBeforeHydration(kindGroup, ["withdrawal", "instant"] as const, setKind);
  return (
    <>
      <h1 className="text-2xl font-bold tracking-tight">New payout</h1>
      {kind === "withdrawal" && prefill.refund_of && /^\d+$/.test(prefill.refund_of) && (
        <p className="mt-1">
          Refund of{" "}
          <a href={`/dashboard/invoices/${prefill.refund_of}`} className="underline">
            invoice {prefill.refund_of}
          </a>
          : recorded against it, and refused beyond what it owes.
        </p>
      )}
      <p className="mt-1 text-sm">
        Paying many people?{" "}
        <a href="/dashboard/payouts/bulk" className="underline">
          Send a bulk payout from a CSV file
        </a>
        .
      </p>
      <fieldset ref={kindGroup} className="mt-3">
        <legend className="text-sm font-medium">Kind of payout</legend>
        <div className="mt-1 flex flex-wrap gap-4 text-sm">
          <label className="flex items-center gap-2">
            <input
              type="radio"
              name="kind"
              checked={kind === "withdrawal"}
              onChange={() => setKind("withdrawal")}
            />
            Withdrawal (optionally converted from another balance)
          </label>
          <label className="flex items-center gap-2">
            <input
              type="radio"
              name="kind"
              checked={kind === "instant"}
              onChange={() => setKind("instant")}
            />
            Instant withdrawal
          </label>
        </div>
      </fieldset>
      <PayoutForm
        key={kind}
        kind={kind}
        sandboxCurrencies={sandboxCurrencies}
        merchantName={merchantName}
        prefill={kind === "withdrawal" ? prefill : {}}
      />
    </>
  );
}
