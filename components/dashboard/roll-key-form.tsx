"use client";

import type { z } from "zod";
import { secondaryButtonClass, selectClass } from "@/components/forms/field";
import { selectDefault } from "@/components/forms/field-defaults";
import { FormError } from "@/components/forms/form-error";
import { formSchema } from "@/components/forms/form-schema";
import { useIsHydrated } from "@/components/forms/use-is-hydrated";
import { useKassaForm } from "@/components/forms/use-kassa-form";
import { type ApiKey, type RolledApiKey, useRollApiKey } from "@/components/query/use-api-keys";
import type { apiKeyRollRequest } from "@/lib/schemas/dashboard";

const schema = formSchema(() => import("@/lib/schemas/dashboard").then((m) => m.apiKeyRollRequest));

/** The overlaps a roll offers: long enough to deploy the new secret, short enough to end a leak. */
const OVERLAPS = [
  { seconds: 0, label: "End the old key now" },
  { seconds: 3600, label: "1 hour" },
  { seconds: 86_400, label: "24 hours" },
  { seconds: 604_800, label: "7 days" },
];

/**
 * Rolls one key. A roll hands out a new secret, so it is confirmed as a new key is (the
 * dashboard's one dialog).
 */
export function RollKeyForm({
  apiKey,
  onRolled,
}: {
  apiKey: ApiKey;
  /** The new pair; the caller shows it (this form goes once the key has an end). */
  onRolled: (rolled: RolledApiKey) => void;
}) {
  const isHydrated = useIsHydrated();
  const roll = useRollApiKey();
  const form = useKassaForm<z.input<typeof apiKeyRollRequest>>(schema, {
    defaultValues: { overlap_seconds: 86_400 },
  });
  const submit = form.submitWith(async (values) => {
    onRolled(await roll.mutateAsync({ id: apiKey.id, body: values }));
    form.reset();
  });
  const idPrefix = `roll-${apiKey.id}`;
  return (
    <form aria-label={`Roll ${apiKey.label}`} onSubmit={submit} noValidate>
      <label htmlFor={`${idPrefix}-overlap`} className="block text-sm font-medium">
        Roll: the old key keeps working for
      </label>
      <select
        id={`${idPrefix}-overlap`}
        className={`mt-1 ${selectClass}`}
        defaultValue={selectDefault(form, "overlap_seconds")}
        {...form.register("overlap_seconds", { valueAsNumber: true })}
      >
        {OVERLAPS.map((o) => (
          <option key={o.seconds} value={o.seconds}>
            {o.label}
          </option>
        ))}
      </select>
      <button
        type="submit"
        className={`mt-2 ${secondaryButtonClass}`}
        disabled={!isHydrated || roll.isPending}
      >
        {roll.isPending ? "Rolling…" : "Roll key"}
      </button>
      <FormError message={form.formError} />
    </form>
  );
}
