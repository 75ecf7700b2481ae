"use client";

import { useState } from "react";
import type { z } from "zod";
import { secondaryButtonClass } from "@/components/forms/field";
import { FormError } from "@/components/forms/form-error";
import { formSchema } from "@/components/forms/form-schema";
import { useIsHydrated } from "@/components/forms/use-is-hydrated";
import { useKassaForm } from "@/components/forms/use-kassa-form";
import { type ApiKey, useRevokeApiKey } from "@/components/query/use-api-keys";
import type { apiKeyRevokeRequest } from "@/lib/schemas/dashboard";

const schema = formSchema(() => import("@/lib/schemas/dashboard").then((m) => m.apiKeyRevokeRequest));

/**
 * Revokes one key. It can cut a shop off its payments, so it is confirmed as a new key is (the
 * dashboard's one dialog). The form opens from the button and is the "are you sure".
 */
export function RevokeKeyForm({ apiKey }: { apiKey: ApiKey }) {
  const isHydrated = useIsHydrated();
  const [isOpen, setIsOpen] = useState(false);
  const revoke = useRevokeApiKey();
  const form = useKassaForm<z.input<typeof apiKeyRevokeRequest>>(schema);
  const submit = form.submitWith(async (values) => {
    await revoke.mutateAsync({ id: apiKey.id, body: values });
  });
  if (!isOpen)
    return (
      <button type="button" className={secondaryButtonClass} onClick={() => setIsOpen(true)}>
        Revoke
      </button>
    );
  return (
    <form aria-label={`Revoke ${apiKey.label}`} onSubmit={submit} noValidate className="w-full max-w-md">
      <p className="text-sm">
        Revoke &quot;{apiKey.label}&quot;? Requests signed with it will be refused from now on.
      </p>
      <div className="mt-2 flex gap-2">
        <button type="submit" className={secondaryButtonClass} disabled={!isHydrated || revoke.isPending}>
          {revoke.isPending ? "Revoking…" : "Revoke key"}
        </button>
        <button type="button" className={secondaryButtonClass} onClick={() => setIsOpen(false)}>
          Cancel
        </button>
      </div>
      <FormError message={form.formError} />
    </form>
  );
}
