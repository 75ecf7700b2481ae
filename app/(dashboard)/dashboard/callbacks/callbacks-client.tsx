"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useState } from "react";
import { buttonClass, secondaryButtonClass, selectClass } from "@/components/forms/field";
import { DashboardRequestError, dashboardFetch } from "@/lib/dashboard/client-api";

type Log = {
  callbacks: {
    id: number;
    transaction_id: number;
    event: string;
    url: string;
    status: string;
    attempts: number;
    last_http_status: number | null;
    last_error: string | null;
    next_attempt_at: string | null;
    created_at: string;
  }[];
};

export function CallbacksClient() {
  const queryClient = useQueryClient();
  const setting = useQuery({
    queryKey: ["callback-url"],
    queryFn: () =>
      dashboardFetch<{ callback_url: string | null; mode: string }>("/api/dashboard/callback-url"),
  });
  const log = useQuery({
    queryKey: ["callbacks"],
    queryFn: () => dashboardFetch<Log>("/api/dashboard/callbacks"),
    refetchInterval: 5_000,
  });
  const [url, setUrl] = useState("");
  useEffect(() => setUrl(setting.data?.callback_url ?? ""), [setting.data]);
  const save = useMutation({
    mutationFn: () =>
      dashboardFetch("/api/dashboard/callback-url", { method: "PUT", body: { callback_url: url } }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ["callback-url"] }),
  });
  const resend = useMutation({
    mutationFn: (id: number) => dashboardFetch(`/api/dashboard/callbacks/${id}/resend`, { body: {} }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ["callbacks"] }),
  });
  const saveError =
    save.error instanceof DashboardRequestError
      ? (save.error.fields.callback_url ?? save.error.message)
      : null;
  return (
    <>
      <h1 className="text-2xl font-bold tracking-tight">Callbacks</h1>
      <form
        className="mt-4 max-w-2xl"
        onSubmit={(event) => {
          event.preventDefault();
          save.mutate();
        }}
      >
        <label htmlFor="callback-url" className="block text-sm font-medium">
          Callback URL
        </label>
        <input
          id="callback-url"
          type="url"
          value={url}
          onChange={(event) => setUrl(event.target.value)}
          aria-invalid={saveError ? true : undefined}
          aria-describedby="callback-url-hint"
          className={selectClass}
          placeholder="https://shop.example/kassa/callbacks"
        />
        <p id="callback-url-hint" className="mt-1 text-xs text-slate-600 dark:text-slate-400">
          {setting.data?.mode === "production"
            ? "Must be https and public."
            : "Sandbox mode also allows http and localhost."}{" "}
          Leave it empty to stop callbacks.
        </p>
        {saveError && <p className="mt-1 text-sm text-red-700 dark:text-red-300">{saveError}</p>}
        {save.isSuccess && (
          <p className="mt-1 text-sm" aria-live="polite">
            Saved.
          </p>
        )}
        <button type="submit" disabled={save.isPending} className={`mt-2 ${buttonClass}`}>
          {save.isPending ? "Saving…" : "Save"}
        </button>
      </form>
      <h2 className="mt-8 text-xl font-semibold">Delivery log</h2>
      {log.isPending && <p aria-live="polite">Loading deliveries…</p>}
      {log.data && log.data.callbacks.length === 0 && <p className="mt-2">No callbacks sent yet.</p>}
      {log.data && log.data.callbacks.length > 0 && (
        <ul className="mt-2 divide-y divide-slate-200 border-y border-slate-200 text-sm dark:divide-slate-800 dark:border-slate-800">
          {log.data.callbacks.map((c) => (
            <li key={c.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
              <div className="min-w-0">
                <span
                  className={
                    c.status === "delivered"
                      ? "text-emerald-700 dark:text-emerald-300"
                      : c.status === "failed"
                        ? "text-red-700 dark:text-red-300"
                        : ""
                  }
                >
                  {c.status === "delivered"
                    ? "✓ Delivered"
                    : c.status === "failed"
                      ? "✗ Failed"
                      : "… Pending"}
                </span>{" "}
                {c.event} for{" "}
                <Link href={`/dashboard/transactions/${c.transaction_id}`} className="underline">
                  transaction {c.transaction_id}
                </Link>
                <div className="text-xs text-slate-600 dark:text-slate-400">
                  {new Date(c.created_at).toLocaleString()} · {c.attempts} attempt
                  {c.attempts === 1 ? "" : "s"}
                  {c.last_http_status !== null ? ` · HTTP ${c.last_http_status}` : ""}
                  {c.last_error ? ` · ${c.last_error}` : ""}
                  {c.next_attempt_at ? ` · next try ${new Date(c.next_attempt_at).toLocaleTimeString()}` : ""}
                </div>
              </div>
              <button
                type="button"
                className={secondaryButtonClass}
                disabled={resend.isPending}
                onClick={() => resend.mutate(c.id)}
              >
                Resend
              </button>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
