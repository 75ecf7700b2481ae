"use client";

import { useEffect, useState } from "react";
import type { UseFormReturn } from "react-hook-form";
import { Field } from "@/components/forms/field";
import { findCurrency } from "@/lib/currencies/registry";
import type { PayoutValues } from "./payout-values";

/**
 * Where the payout goes (address and tag, checked as typed) and the merchant's own references. On
 * the sandbox chain testnet addresses are accepted too, as the server accepts them.
 */
export function DestinationFields({
  form,
  target,
  isSandboxChain,
}: {
  form: UseFormReturn<PayoutValues>;
  target: string;
  isSandboxChain: boolean;
}) {
  const { register, formState, watch } = form;
  const errors = formState.errors;
  const address = watch("address") ?? "";
  const targetCurrency = findCurrency(target);
  // The address codecs (checksums for every network, ~20 KB gzipped) load after the page shows;
  // until then the hint waits, and the server checks the address in any case.
  const [codec, setCodec] = useState<typeof import("@/lib/chain/address-codec")>();
  useEffect(() => {
    import("@/lib/chain/address-codec").then(setCodec, () => {});
  }, []);
  const addressCheck =
    codec && address && targetCurrency?.addressFormat
      ? codec.checkAddress(
          targetCurrency.addressFormat,
          address.trim(),
          isSandboxChain ? ["testnet", "mainnet"] : ["mainnet"],
        )
      : null;
  return (
    <>
      <Field
        label={`Destination ${targetCurrency?.name ?? target} address`}
        name="address"
        errors={errors}
        register={register("address")}
        autoComplete="off"
        spellCheck={false}
        hint={
          addressCheck
            ? addressCheck.isValid
              ? `A valid ${targetCurrency?.name} address.`
              : `This ${addressCheck.reason}.`
            : undefined
        }
      />
      {targetCurrency && targetCurrency.tagSupport !== "none" && (
        <Field
          label={`${targetCurrency.tagName ?? "Tag"}${targetCurrency.tagSupport === "required" ? "" : " (optional)"}`}
          name="tag"
          errors={errors}
          register={register("tag")}
          inputMode="numeric"
          hint={
            targetCurrency.tagSupport === "required"
              ? "Required: funds sent to an exchange without it can be lost."
              : undefined
          }
        />
      )}
      <div className="grid gap-x-4 sm:grid-cols-2">
        <Field
          label="Your payout id (foreign_id)"
          name="foreign_id"
          errors={errors}
          register={register("foreign_id")}
        />
        <Field
          label="Customer reference (end_user_reference)"
          name="end_user_reference"
          errors={errors}
          register={register("end_user_reference")}
        />
      </div>
    </>
  );
}
