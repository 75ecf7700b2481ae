"use client";

import { useState } from "react";
import type { z } from "zod";
import { KeyControls } from "@/components/dashboard/key-controls";
import { RevokeKeyForm } from "@/components/dashboard/revoke-key-form";
import { SecretReveal } from "@/components/dashboard/secret-reveal";
import { buttonClass, Field } from "@/components/forms/field";
import { FormError } from "@/components/forms/form-error";
import { formSchema } from "@/components/forms/form-schema";
import { useIsHydrated } from "@/components/forms/use-is-hydrated";
import { useKassaForm } from "@/components/forms/use-kassa-form";
import { type CreatedApiKey, useApiKeys, useCreateApiKey } from "@/components/query/use-api-keys";
import { formatDateTime } from "@/lib/format-date-time";
import type { apiKeyRequest } from "@/lib/schemas/dashboard";

const schema = formSchema(() => import("@/lib/schemas/dashboard").then((m) => m.apiKeyRequest));

const when = (iso: string | null) => (iso ? formatDateTime(iso) : "never");

/**
 * Key changes are confirmed in the dashboard's one dialog (components/step-up), not per row.
 * Only a member who may create payouts (`mayMoveMoney`) is offered a key that moves money.
 */
export function KeysClient({ mayMoveMoney }: { mayMoveMoney: boolean }) {
  const isHydrated = useIsHydrated();
  const keys = useApiKeys();
  const create = useCreateApiKey();
  const form = useKassaForm<z.input<typeof apiKeyRequest>>(schema, {
    defaultValues: { label: "", can_move_money: false },
  });
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const submit = form.submitWith(async (values) => {
    setCreated(await create.mutateAsync(values));
    form.reset();
  });
  return (
    <>
      <h1 className="text-2xl font-bold tracking-tight">API keys</h1>
      <p className="mt-2 max-w-2xl text-slate-700 dark:text-slate-300">
        The key identifies you; the secret signs your requests. Use one key per system, so you can revoke one
        without touching the others. Revoking takes effect on the next request.
      </p>
      <p className="mt-2 max-w-2xl text-slate-700 dark:text-slate-300">
        {mayMoveMoney
          ? "A key may also move money (withdrawals and exchanges through the API) when you tick the box; leave it off for keys that only create invoices and read."
          : "Keys you create cannot move money (withdrawals and exchanges through the API): your role cannot create payouts. Ask an owner, an admin or finance for such a key."}
      </p>
      <form
        aria-label="New API key"
        className="mt-1 flex flex-wrap items-start gap-2"
        onSubmit={submit}
        noValidate
      >
        <div className="min-w-64">
          <Field
            label="Name for the new key"
            name="label"
            errors={form.formState.errors}
            register={form.register("label")}
            placeholder="Checkout server"
          />
        </div>
        {mayMoveMoney && (
          <div className="mt-9 flex items-center gap-2">
            <input
              id="field-can_move_money"
              type="checkbox"
              {...form.register("can_move_money")}
              className="h-4 w-4"
            />
            <label htmlFor="field-can_move_money" className="text-sm">
              May move money (withdrawals, exchanges)
            </label>
          </div>
        )}
        <button type="submit" disabled={!isHydrated || create.isPending} className={`mt-9 ${buttonClass}`}>
          {create.isPending ? "Creating…" : "Create key"}
        </button>
      </form>
      <FormError message={form.formError} />
      {created && <SecretReveal apiKey={created.api_key} secret={created.api_secret} />}
      {keys.isPending && (
        <p className="mt-4" aria-live="polite">
          Loading keys…
        </p>
      )}
      {keys.error && (
        <p className="mt-4 text-red-700">Your keys could not be loaded. Reload the page to try again.</p>
      )}
      {keys.data && keys.data.keys.length === 0 && <p className="mt-4">No keys yet. Create one above.</p>}
      {keys.data && keys.data.keys.length > 0 && (
        <ul className="mt-6 divide-y divide-slate-200 border-y border-slate-200 dark:divide-slate-800 dark:border-slate-800">
          {keys.data.keys.map((key) => (
            <li key={key.id} className="flex flex-wrap items-center justify-between gap-2 py-3">
              <div className="min-w-0">
                <div className="font-medium">
                  {key.label}{" "}
                  <span className="ml-1 rounded bg-slate-200 px-1.5 text-xs dark:bg-slate-700">
                    {key.can_move_money ? "moves money" : "no withdrawals or exchanges"}
                  </span>
                  {key.revoked_at && (
                    <span className="ml-1 rounded bg-slate-200 px-1.5 text-xs dark:bg-slate-700">
                      revoked
                    </span>
                  )}
                </div>
                <div className="break-all font-mono text-sm">{key.api_key}</div>
                <div className="text-xs text-slate-600 dark:text-slate-400">
                  Created {when(key.created_at)}
                  {key.created_by && (
                    <>
                      {" "}
                      by {key.created_by}
                      {key.is_creator_removed &&
                        " (removed from the team: revoke or roll it if it is no longer needed)"}
                    </>
                  )}{" "}
                  · last used {when(key.last_used_at)}
                  {key.last_used_ip && <> from {key.last_used_ip}</>}
                  {key.expires_at && !key.revoked_at && (
                    <>
                      {" "}
                      · rolled: {new Date(key.expires_at) > new Date() ? "works until" : "ended"}{" "}
                      {when(key.expires_at)}
                    </>
                  )}
                  {key.allowed_ips.length > 0 && <> · only from {key.allowed_ips.join(", ")}</>}
                </div>
              </div>
              {!key.revoked_at && <RevokeKeyForm apiKey={key} />}
              {!key.revoked_at && (
                <div className="w-full">
                  <KeyControls apiKey={key} mayMoveMoney={mayMoveMoney} />
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
