"use client";

import { useState } from "react";
import type { z } from "zod";
import { Field, secondaryButtonClass, selectClass } from "@/components/forms/field";
import { FormError } from "@/components/forms/form-error";
import { formSchema } from "@/components/forms/form-schema";
import { useIsHydrated } from "@/components/forms/use-is-hydrated";
import { useKassaForm } from "@/components/forms/use-kassa-form";
import { type ApiKey, type RolledApiKey, useSetKeyAllowlist } from "@/components/query/use-api-keys";
import { splitRanges } from "@/lib/api-keys/split-ranges";
import { formatDateTime } from "@/lib/format-date-time";
import type { apiKeyAllowlistForm } from "@/lib/schemas/dashboard";
import { RollKeyForm } from "./roll-key-form";
import { SecretReveal } from "./secret-reveal";

const schema = formSchema(() => import("@/lib/schemas/dashboard").then((m) => m.apiKeyAllowlistForm));
const LABELS = { allowed_ips: "Allowed IP addresses" };

/**
 * One active key's IP allowlist and roll, under its row on the API keys page. A key that moves
 * money is rolled only by a member who may create payouts (`mayMoveMoney`): others are told so.
 */
export function KeyControls({ apiKey, mayMoveMoney }: { apiKey: ApiKey; mayMoveMoney: boolean }) {
  const isHydrated = useIsHydrated();
  const allowlist = useSetKeyAllowlist();
  const [rolled, setRolled] = useState<RolledApiKey | null>(null);
  // Widening who may use a key is confirmed as a new key is (the dashboard's one dialog).
  const form = useKassaForm<z.input<typeof apiKeyAllowlistForm>>(schema, {
    labels: LABELS,
    defaultValues: { allowed_ips: apiKey.allowed_ips.join("\n") },
  });
  const submit = form.submitWith(async ({ allowed_ips }) => {
    await allowlist.mutateAsync({ id: apiKey.id, body: { allowed_ips: splitRanges(allowed_ips ?? "") } });
    form.reset({ allowed_ips });
  });
  const { errors } = form.formState;
  const idPrefix = `allowlist-${apiKey.id}`;
  const describedBy = [`${idPrefix}-allowed_ips-hint`, errors.allowed_ips && `${idPrefix}-allowed_ips-error`];
  return (
    <div className="mt-3 grid gap-4 sm:grid-cols-2">
      <form aria-label={`Allowed addresses of ${apiKey.label}`} onSubmit={submit} noValidate>
        <Field
          label={LABELS.allowed_ips}
          name="allowed_ips"
          idPrefix={idPrefix}
          errors={errors}
          hint="Addresses or CIDR ranges (IPv4 or IPv6), one per line. Empty: any address."
        >
          <textarea
            id={`${idPrefix}-allowed_ips`}
            rows={3}
            aria-describedby={describedBy.filter(Boolean).join(" ")}
            aria-invalid={errors.allowed_ips ? true : undefined}
            className={`font-mono text-sm ${selectClass}`}
            placeholder="203.0.113.0/24"
            {...form.register("allowed_ips")}
          />
        </Field>
        <button
          type="submit"
          className={`mt-2 ${secondaryButtonClass}`}
          disabled={!isHydrated || allowlist.isPending}
        >
          {allowlist.isPending ? "Saving…" : "Save allowed addresses"}
        </button>
        {allowlist.isSuccess && (
          <p className="mt-1 text-sm" role="status">
            Saved. It applies from the next request.
          </p>
        )}
        <FormError message={form.formError} />
      </form>
      {!apiKey.expires_at &&
        (apiKey.can_move_money && !mayMoveMoney ? (
          <p className="text-sm text-slate-700 dark:text-slate-300">
            This key moves money: only a member who may create payouts can roll it.
          </p>
        ) : (
          <RollKeyForm apiKey={apiKey} onRolled={setRolled} />
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
