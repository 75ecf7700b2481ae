"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { SecretReveal } from "@/components/dashboard/secret-reveal";
import { buttonClass, secondaryButtonClass } from "@/components/forms/field";
import { DashboardRequestError, dashboardFetch } from "@/lib/dashboard/client-api";

type Key = {
  id: number;
  api_key: string;
  label: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
};
type Created = { api_key: string; api_secret: string };

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : "never");

export function KeysClient() {
  const queryClient = useQueryClient();
  const keys = useQuery({
    queryKey: ["api-keys"],
    queryFn: () => dashboardFetch<{ keys: Key[] }>("/api/dashboard/api-keys"),
  });
  const [label, setLabel] = useState("");
  const [created, setCreated] = useState<Created | null>(null);
  const create = useMutation({
    mutationFn: () => dashboardFetch<Created>("/api/dashboard/api-keys", { body: { label } }),
    onSuccess: (key) => {
      setCreated(key);
      setLabel("");
      void queryClient.invalidateQueries({ queryKey: ["api-keys"] });
    },
  });
  const revoke = useMutation({
    mutationFn: (id: number) => dashboardFetch(`/api/dashboard/api-keys/${id}/revoke`, { body: {} }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ["api-keys"] }),
  });
  const createError =
    create.error instanceof DashboardRequestError
      ? (create.error.fields.label ?? create.error.message)
      : null;
  return (
    <>
      <h1 className="text-2xl font-bold tracking-tight">API keys</h1>
      <p className="mt-2 max-w-2xl text-slate-700 dark:text-slate-300">
        The key identifies you; the secret signs your requests. Use one key per system, so you can revoke one
        without touching the others. Revoking takes effect on the next request.
      </p>
      <form
        className="mt-4 flex flex-wrap items-end gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          create.mutate();
        }}
      >
        <div>
          <label htmlFor="key-label" className="block text-sm font-medium">
            Name for the new key
          </label>
          <input
            id="key-label"
            value={label}
            onChange={(event) => setLabel(event.target.value)}
            aria-invalid={createError ? true : undefined}
            aria-describedby={createError ? "key-label-error" : undefined}
            className="mt-1 rounded-md border border-slate-300 px-3 py-2 dark:border-slate-600 dark:bg-slate-900"
            placeholder="Checkout server"
          />
        </div>
        <button type="submit" disabled={create.isPending} className={buttonClass}>
          {create.isPending ? "Creating…" : "Create key"}
        </button>
      </form>
      {createError && (
        <p id="key-label-error" className="mt-1 text-sm text-red-700 dark:text-red-300">
          {createError}
        </p>
      )}
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
                  {key.revoked_at && (
                    <span className="ml-1 rounded bg-slate-200 px-1.5 text-xs dark:bg-slate-700">
                      revoked
                    </span>
                  )}
                </div>
                <div className="break-all font-mono text-sm">{key.api_key}</div>
                <div className="text-xs text-slate-600 dark:text-slate-400">
                  Created {when(key.created_at)} · last used {when(key.last_used_at)}
                </div>
              </div>
              {!key.revoked_at && (
                <button
                  type="button"
                  className={secondaryButtonClass}
                  disabled={revoke.isPending}
                  onClick={() => {
                    if (
                      window.confirm(
                        `Revoke "${key.label}"? Requests signed with it will be refused from now on.`,
                      )
                    )
                      revoke.mutate(key.id);
                  }}
                >
                  Revoke
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
