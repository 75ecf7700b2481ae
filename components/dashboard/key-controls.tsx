"use client";

import { useId, useState } from "react";
import { type FieldErrors, useForm } from "react-hook-form";
import { SecondFactorField } from "@/app/(dashboard)/dashboard/approvals/second-factor-field";
import { secondaryButtonClass, selectClass } from "@/components/forms/field";
import { errorMessage, FormError } from "@/components/forms/form-error";
import { type ApiKey, type RolledApiKey, useSetKeyAllowlist } from "@/components/query/use-api-keys";
import { formatDateTime } from "@/lib/format-date-time";
import { RollKeyForm } from "./roll-key-form";
import { SecretReveal } from "./secret-reveal";

/**
 * One active key's IP allowlist and roll, under its row on the API keys page. A key that moves
 * money is rolled only by a member who may create payouts (`mayMoveMoney`): others are told so.
 */
export function KeyControls({
  apiKey,
  hasTotp,
  mayMoveMoney,
}: {
  apiKey: ApiKey;
  hasTotp: boolean;
  mayMoveMoney: boolean;
}) {
  const id = useId();
  const allowlist = useSetKeyAllowlist();
  const [ranges, setRanges] = useState(apiKey.allowed_ips.join("\n"));
  const [rolled, setRolled] = useState<RolledApiKey | null>(null);
  // Widening who may use a key is confirmed as a new key is (code, or password without two-factor).
  const confirm = useForm<{ code?: string; password?: string }>({
    defaultValues: hasTotp ? { code: "" } : { password: "" },
  });
  const fields =
    allowlist.error && "fields" in allowlist.error ? (allowlist.error.fields as Record<string, string>) : {};
  const fieldError = fields.allowed_ips;
  const confirmErrors: FieldErrors = Object.fromEntries(
    (["code", "password"] as const)
      .filter((name) => fields[name])
      .map((name) => [name, { type: "server", message: fields[name] }]),
  );
  const hasFieldError = fieldError !== undefined || Object.keys(confirmErrors).length > 0;
  return (
    <div className="mt-3 grid gap-4 sm:grid-cols-2">
      <form
        aria-label={`Allowed addresses of ${apiKey.label}`}
        onSubmit={(event) => {
          event.preventDefault();
          allowlist.mutate(
            {
              id: apiKey.id,
              body: { allowed_ips: ranges.split(/[\s,]+/).filter(Boolean), ...confirm.getValues() },
            },
            { onSuccess: () => confirm.reset() },
          );
        }}
      >
        <label htmlFor={`${id}-ips`} className="block text-sm font-medium">
          Allowed IP addresses
        </label>
        <p id={`${id}-ips-hint`} className="text-xs text-slate-600 dark:text-slate-400">
          Addresses or CIDR ranges (IPv4 or IPv6), one per line. Empty: any address.
        </p>
        <textarea
          id={`${id}-ips`}
          rows={3}
          value={ranges}
          onChange={(event) => setRanges(event.target.value)}
          aria-describedby={`${id}-ips-hint${fieldError ? ` ${id}-ips-error` : ""}`}
          aria-invalid={fieldError ? true : undefined}
          className={`mt-1 font-mono text-sm ${selectClass}`}
          placeholder="203.0.113.0/24"
        />
        {fieldError && (
          <p id={`${id}-ips-error`} className="mt-1 text-sm text-red-700 dark:text-red-300">
            {fieldError}
          </p>
        )}
        <SecondFactorField
          hasTotp={hasTotp}
          idPrefix={`${id}-confirm`}
          errors={confirmErrors}
          register={confirm.register}
        />
        <button type="submit" className={`mt-2 ${secondaryButtonClass}`} disabled={allowlist.isPending}>
          {allowlist.isPending ? "Saving…" : "Save allowed addresses"}
        </button>
        {allowlist.isSuccess && (
          <p className="mt-1 text-sm" role="status">
            Saved. It applies from the next request.
          </p>
        )}
        {allowlist.error && !hasFieldError && <FormError message={errorMessage(allowlist.error)} />}
      </form>
      {!apiKey.expires_at &&
        (apiKey.can_move_money && !mayMoveMoney ? (
          <p className="text-sm text-slate-700 dark:text-slate-300">
            This key moves money: only a member who may create payouts can roll it.
          </p>
        ) : (
          <RollKeyForm apiKey={apiKey} hasTotp={hasTotp} onRolled={setRolled} />
        ))}
      {rolled && (
        <div className="sm:col-span-2">
          <p className="text-sm" role="status">
            New key created. {rolled.replaced_key} works until {formatDateTime(rolled.replaced_until)}.
          </p>
          <SecretReveal apiKey={rolled.api_key} secret={rolled.api_secret} />
        </div>
      )}
    </div>
  );
}
