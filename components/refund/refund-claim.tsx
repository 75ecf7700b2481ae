"use client";

import { useEffect, useRef, useState } from "react";
import { buttonClass, secondaryButtonClass } from "@/components/forms/control-classes";
import { useChoiceMadeBeforeHydration } from "@/components/forms/use-choice-made-before-hydration";
import type { RefundPageView } from "@/lib/refunds/refund-page-view";
import { FINAL_PAYOUT_STATUSES, PayoutState } from "./payout-state";

/** What the no-JavaScript form's refusal codes (app/refund/[token]/claim) mean. */
const ERROR_TEXT: Record<string, string> = {
  address: "That address was not accepted for the coin chosen. Check it and try again.",
  currency: "Choose one of the coins listed.",
  unavailable: "The refund could not be sent just now. Nothing was sent; try again in a few minutes.",
  closed: "The refund could not be sent just now. Nothing was sent; try again in a few minutes.",
};

const inputClass = (isInvalid: boolean) =>
  "mt-1 block w-full rounded-md border px-3 py-2 font-mono text-base dark:bg-slate-900 " +
  (isInvalid ? "border-red-600 dark:border-red-400" : "border-slate-300 dark:border-slate-600");

/**
 * The customer's side of an offered refund: choose the coin, enter the address (and tag where the
 * network takes one), review, confirm. Works as a plain form post without JavaScript; with it, the
 * claim is sent as JSON, its refusals shown next to the field, and the payout followed live.
 */
export function RefundClaim({
  token,
  initial,
  errorCode,
}: {
  token: string;
  initial: RefundPageView;
  errorCode: string | null;
}) {
  const [view, setView] = useState(initial);
  const firstOpen = initial.options.find((option) => !option.isUnderMinimum) ?? initial.options[0];
  const [currency, setCurrency] = useState(firstOpen?.currency ?? "");
  const [address, setAddress] = useState("");
  const [tag, setTag] = useState("");
  const [isReviewing, setReviewing] = useState(false);
  const [isSending, setSending] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>(
    errorCode && ERROR_TEXT[errorCode] ? { form: ERROR_TEXT[errorCode]! } : {},
  );
  const confirmRef = useRef<HTMLButtonElement>(null);
  // A coin chosen on the server-rendered page before its script ran is the one claimed.
  const optionGroup = useRef<HTMLDivElement>(null);
  useChoiceMadeBeforeHydration(
    optionGroup,
    view.options.map((o) => o.currency),
    setCurrency,
  );
  const option = view.options.find((o) => o.currency === currency);

  const isFinal = view.payout !== null && FINAL_PAYOUT_STATUSES.includes(view.payout.status);
  useEffect(() => {
    if (view.status !== "claimed" || isFinal) return;
    const timer = setInterval(async () => {
      const response = await fetch(`/api/refund/${encodeURIComponent(token)}`, { cache: "no-store" }).catch(
        () => null,
      );
      if (response?.ok) setView((await response.json()) as RefundPageView);
    }, 4000);
    return () => clearInterval(timer);
  }, [token, view.status, isFinal]);

  useEffect(() => {
    if (isReviewing) confirmRef.current?.focus();
  }, [isReviewing]);

  if (view.status === "claimed") {
    return (
      <div aria-live="polite">
        <PayoutState view={view} />
      </div>
    );
  }

  async function send() {
    setSending(true);
    setErrors({});
    try {
      const response = await fetch(`/api/refund/${encodeURIComponent(token)}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ currency, address, ...(tag.trim() ? { tag } : {}) }),
      });
      const body = (await response.json().catch(() => ({}))) as {
        errors?: Record<string, string[] | string>;
        /** A refusal without fields says why here (lib/api/error-response.ts, the API's shape). */
        error?: string;
      } & Partial<RefundPageView>;
      if (response.ok) {
        setView(body as RefundPageView);
        return;
      }
      const fields: Record<string, string> = {};
      for (const [name, messages] of Object.entries(body.errors ?? {}))
        fields[name] = Array.isArray(messages) ? messages.join(" ") : String(messages);
      if (Object.keys(fields).length === 0) fields.form = body.error ?? ERROR_TEXT.unavailable!;
      setErrors(fields);
      setReviewing(false);
    } catch {
      setErrors({ form: ERROR_TEXT.unavailable! });
      setReviewing(false);
    } finally {
      setSending(false);
    }
  }

  const addressError = errors.address;
  const tagError = errors.tag;
  return (
    <form
      method="post"
      action={`/refund/${encodeURIComponent(token)}/claim`}
      className="mt-6"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (!address.trim()) {
          setErrors({ address: `Enter the ${currency} address to receive the refund.` });
          return;
        }
        if (option?.tag?.isRequired && !tag.trim()) {
          setErrors({
            tag: `${option.tag.name} is required for ${currency}: your wallet or exchange shows it.`,
          });
          return;
        }
        if (isReviewing) void send();
        else {
          setErrors({});
          setReviewing(true);
        }
      }}
    >
      <fieldset disabled={isReviewing || isSending}>
        <legend className="text-lg font-semibold">1. Choose the coin to receive</legend>
        <div className="mt-2 space-y-2" ref={optionGroup}>
          {view.options.map((o) => (
            <label
              key={o.currency}
              className={`flex items-start gap-3 rounded-md border p-3 ${currency === o.currency ? "border-indigo-600 dark:border-indigo-400" : "border-slate-300 dark:border-slate-600"} ${o.isUnderMinimum ? "opacity-70" : ""}`}
            >
              <input
                type="radio"
                name="currency"
                value={o.currency}
                checked={currency === o.currency}
                disabled={o.isUnderMinimum}
                onChange={() => setCurrency(o.currency)}
                className="mt-1"
              />
              <span>
                <span className="font-medium">
                  {o.name} ({o.currency})
                </span>
                <span className="block text-sm text-slate-700 dark:text-slate-300">
                  {o.receives === null
                    ? "Cannot be priced right now."
                    : o.isUnderMinimum
                      ? `${o.receives} ${o.currency} is under this network's minimum of ${o.minimum} ${o.currency}.`
                      : `You receive ${o.receives} ${o.currency}${view.isFeeTaken ? `, after the network fee of ${o.networkFee} ${o.currency}` : ""}.`}
                </span>
              </span>
            </label>
          ))}
        </div>
        {errors.currency && (
          <p id="refund-currency-error" className="mt-1 text-sm text-red-700 dark:text-red-400">
            {errors.currency}
          </p>
        )}

        <h2 className="mt-6 text-lg font-semibold">2. Enter your address</h2>
        <label htmlFor="refund-address" className="mt-2 block text-sm font-medium">
          Your {currency} address
        </label>
        <input
          id="refund-address"
          name="address"
          autoComplete="off"
          spellCheck={false}
          value={address}
          onChange={(event) => setAddress(event.target.value)}
          aria-invalid={addressError ? true : undefined}
          aria-describedby={`refund-address-hint${addressError ? " refund-address-error" : ""}`}
          className={inputClass(Boolean(addressError))}
        />
        <p id="refund-address-hint" className="mt-1 text-xs text-slate-600 dark:text-slate-400">
          Copy it from your wallet. It must be a {currency} address: coins sent to another network&apos;s
          address are lost.
        </p>
        {addressError && (
          <p id="refund-address-error" className="mt-1 text-sm text-red-700 dark:text-red-400">
            {addressError}
          </p>
        )}
        {option?.tag && (
          <>
            <label htmlFor="refund-tag" className="mt-3 block text-sm font-medium">
              {option.tag.name}
              {option.tag.isRequired ? "" : " (if your wallet or exchange gave you one)"}
            </label>
            <input
              id="refund-tag"
              name="tag"
              inputMode="numeric"
              autoComplete="off"
              value={tag}
              onChange={(event) => setTag(event.target.value)}
              aria-invalid={tagError ? true : undefined}
              aria-describedby={tagError ? "refund-tag-error" : undefined}
              className={inputClass(Boolean(tagError))}
            />
            {tagError && (
              <p id="refund-tag-error" className="mt-1 text-sm text-red-700 dark:text-red-400">
                {tagError}
              </p>
            )}
          </>
        )}
      </fieldset>

      <div aria-live="polite">
        {errors.form && (
          <p
            role="alert"
            className="mt-4 rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-950 dark:border-red-800 dark:bg-red-950 dark:text-red-100"
          >
            {errors.form}
          </p>
        )}
        {isReviewing && option && (
          <div className="mt-6 rounded-md border border-slate-300 p-4 dark:border-slate-600">
            <h2 className="text-lg font-semibold">3. Check and confirm</h2>
            <p className="mt-2">
              You receive{" "}
              <strong>
                {option.receives} {option.currency}
              </strong>{" "}
              at
            </p>
            <p className="mt-1 break-all font-mono">{address.trim()}</p>
            {tag.trim() && (
              <p className="mt-1">
                {option.tag?.name ?? "Tag"}: <span className="font-mono">{tag.trim()}</span>
              </p>
            )}
            <p className="mt-2 text-sm text-slate-700 dark:text-slate-300">
              A payout cannot be called back once sent: check the address against your wallet.
            </p>
          </div>
        )}
      </div>

      <div className="mt-6 flex flex-wrap gap-3">
        <button
          ref={confirmRef}
          type="submit"
          className={buttonClass}
          disabled={isSending || !option || option.isUnderMinimum}
        >
          {isSending ? "Sending…" : isReviewing ? "Confirm and send the refund" : "Continue"}
        </button>
        {isReviewing && !isSending && (
          <button type="button" className={secondaryButtonClass} onClick={() => setReviewing(false)}>
            Change
          </button>
        )}
      </div>
    </form>
  );
}
