"use client";

import { type BaseSyntheticEvent, useEffect, useState } from "react";
import { PartyFields } from "@/components/dashboard/sender-fields";
import { buttonClass } from "@/components/forms/field";
import { PAYOUT_LABELS, relabel } from "@/components/forms/field-labels";
import { FormError } from "@/components/forms/form-error";
import { useIsHydrated } from "@/components/forms/use-is-hydrated";
import { useKassaForm } from "@/components/forms/use-kassa-form";
import { DashboardRequestError } from "@/components/query/dashboard-fetch";
import { fetchQuote, type Quote, useCreatePayout } from "@/components/query/use-payouts";
import { findCurrency } from "@/lib/currencies/registry";
import { describeReceiver } from "@/lib/withdrawals/describe-receiver";
import { AmountFields } from "./amount-fields";
import { DestinationFields } from "./destination-fields";
import { PayoutAccepted, PayoutReview } from "./payout-review";
import {
  type AmountField,
  type PayoutKind,
  type PayoutPrefill,
  type PayoutValues,
  payoutSchemas,
} from "./payout-values";

/** A payout in two steps: the form, then a review of the figures the server quotes, then confirmed. */
export function PayoutForm({
  kind,
  sandboxCurrencies,
  merchantName,
  prefill = {},
}: {
  kind: PayoutKind;
  sandboxCurrencies: readonly string[];
  merchantName: string;
  prefill?: PayoutPrefill;
}) {
  const isInstant = kind === "instant";
  const isHydrated = useIsHydrated();
  const form = useKassaForm<PayoutValues>(payoutSchemas[kind], {
    shouldUnregister: true,
    labels: PAYOUT_LABELS,
    defaultValues: {
      foreign_id: `payout-${Date.now().toString(36)}`,
      // The merchant sends its own payouts: prefilled from the account, editable.
      sender_type: "legal",
      sender_data: { legal_name: merchantName },
      receiver_type: "natural",
      ...(isInstant ? { sender_currency: "BTC" } : { currency: "BTC", convert_to: "" }),
      ...prefill,
    },
  });
  const { register, watch, formState } = form;
  const [amountMode, setAmountMode] = useState<"amount" | "amount_to">(
    prefill.amount_to ? "amount_to" : "amount",
  );
  const [review, setReview] = useState<Quote | null>(null);
  const [result, setResult] = useState<{ id: number; status?: string } | null>(null);
  const createPayout = useCreatePayout();
  // Any change after the review makes the figures under review stale: review again.
  useEffect(() => {
    const subscription = watch(() => setReview(null));
    return () => subscription.unsubscribe();
  }, [watch]);

  const source = (isInstant ? watch("sender_currency") : watch("currency")) ?? "BTC";
  const convertTo = isInstant ? "" : (watch("convert_to") ?? "");
  const target = convertTo || source;
  const amountField: AmountField = isInstant
    ? "sender_amount"
    : amountMode === "amount_to" && convertTo
      ? "amount_to"
      : "amount";

  const targetCurrency = findCurrency(target);
  const tagName = targetCurrency?.tagName ?? "Tag";
  const isTagMissing = targetCurrency?.tagSupport === "required" && !String(watch("tag") ?? "").trim();
  const tagProblem = isTagMissing
    ? `${target} needs a ${tagName.toLowerCase()}: enter it below, or the payout is refused.`
    : undefined;

  const quoteForReview = form.submitWith(async () => {
    if (isTagMissing) return;
    const amountValue = String(watch(amountField) ?? "");
    try {
      setReview(await fetchQuote({ source, target, amountField, amountValue }));
    } catch (caught) {
      // The quote names the amount "amount" whichever field it was typed in.
      if (caught instanceof DashboardRequestError && caught.fields.amount)
        form.setError(amountField, { type: "server", message: relabel(caught.fields.amount, PAYOUT_LABELS) });
      throw caught;
    }
  });
  // A missing tag is flagged after the schema's checks, since handleSubmit resets the form's errors.
  const toReview = async (event?: BaseSyntheticEvent) => {
    await quoteForReview(event);
    if (isTagMissing)
      form.setError("tag", {
        type: "required",
        message: `Enter the ${tagName.toLowerCase()} for ${target}.`,
      });
  };
  const confirm = form.submitWith(async (values) => {
    try {
      setResult(await createPayout.mutateAsync({ kind, values }));
    } catch (caught) {
      setReview(null);
      throw caught;
    }
  });

  if (result) return <PayoutAccepted id={result.id} status={result.status} />;
  const { errors, isSubmitting } = formState;
  return (
    <form onSubmit={review ? confirm : toReview} noValidate className="mt-4 max-w-3xl">
      {prefill.refund_of && <input type="hidden" {...register("refund_of")} />}
      <AmountFields
        form={form}
        isInstant={isInstant}
        source={source}
        convertTo={convertTo}
        amountField={amountField}
        tagProblem={tagProblem}
        onAmountField={(field) => {
          setAmountMode(field);
          setReview(null);
        }}
      />
      <DestinationFields form={form} target={target} isSandboxChain={sandboxCurrencies.includes(target)} />
      <PartyFields
        side="sender"
        title="You (sender)"
        type={watch("sender_type")}
        typeField={register("sender_type")}
        dataField={(key) => register(`sender_data.${key}`)}
        errors={errors}
      />
      <PartyFields
        side="receiver"
        type={watch("receiver_type")}
        typeField={register("receiver_type")}
        dataField={(key) => register(`receiver_data.${key}`)}
        errors={errors}
        allowSelf
      />
      <FormError message={form.formError} />
      {review ? (
        <PayoutReview
          review={review}
          destination={{
            address: String(watch("address") ?? ""),
            tag: String(watch("tag") ?? ""),
            tagName,
            receiver: describeReceiver(watch("receiver_type"), watch("receiver_data")),
          }}
          isSubmitting={isSubmitting}
          onChange={() => setReview(null)}
        />
      ) : (
        <button type="submit" disabled={!isHydrated || isSubmitting} className={`mt-4 ${buttonClass}`}>
          {isSubmitting ? "Checking…" : "Review payout"}
        </button>
      )}
    </form>
  );
}
