"use client";

import Link from "next/link";
import type { z } from "zod";
import { buttonClass, Field, secondaryButtonClass } from "@/components/forms/field";
import { errorMessage, FormError } from "@/components/forms/form-error";
import { formSchema } from "@/components/forms/form-schema";
import { useKassaForm } from "@/components/forms/use-kassa-form";
import {
  useCallbackLog,
  useCallbackSettings,
  useCallbackUrl,
  useResendCallback,
  useSaveCallbackSettings,
  useSaveCallbackUrl,
} from "@/components/query/use-callbacks";
import type { callbackUrlRequest } from "@/lib/schemas/dashboard";

const schema = formSchema(() => import("@/lib/schemas/dashboard").then((m) => m.callbackUrlRequest), {
  isEmptyMeaningful: true, // an empty URL stops callbacks
});

function CallbackUrlForm() {
  const setting = useCallbackUrl();
  const save = useSaveCallbackUrl();
  const form = useKassaForm<z.input<typeof callbackUrlRequest>>(schema, {
    defaultValues: { callback_url: "" },
    // The saved URL fills the field when it arrives, without undoing what the merchant typed meanwhile.
    values: setting.data && { callback_url: setting.data.callback_url ?? "" },
    resetOptions: { keepDirtyValues: true },
  });
  const submit = form.submitWith(async (values) => {
    await save.mutateAsync(values);
  });
  return (
    <form className="mt-1 max-w-2xl" onSubmit={submit} noValidate>
      <Field
        label="Callback URL"
        name="callback_url"
        type="url"
        errors={form.formState.errors}
        register={form.register("callback_url")}
        placeholder="https://shop.example/kassa/callbacks"
        hint={`${
          setting.data?.mode === "production"
            ? "Must be https and public."
            : "Sandbox mode also allows http and localhost."
        } Leave it empty to stop callbacks.`}
      />
      <FormError message={form.formError} />
      {save.isSuccess && (
        <p className="mt-1 text-sm" aria-live="polite">
          Saved.
        </p>
      )}
      <button type="submit" disabled={save.isPending} className={`mt-2 ${buttonClass}`}>
        {save.isPending ? "Saving…" : "Save"}
      </button>
    </form>
  );
}

/** The public API's optional callbacks, each turned on or off at once (no Save button). */
function AdditionalCallbacks() {
  const settings = useCallbackSettings();
  const save = useSaveCallbackSettings();
  const isOn = save.isPending
    ? save.variables.is_below_minimum_callback_on
    : (settings.data?.is_below_minimum_callback_on ?? false);
  return (
    <section className="mt-8 max-w-2xl" aria-labelledby="additional-callbacks">
      <h2 id="additional-callbacks" className="text-xl font-semibold">
        Additional callbacks
      </h2>
      <label className="mt-2 flex items-start gap-2">
        <input
          type="checkbox"
          className="mt-1"
          checked={isOn}
          disabled={!settings.data || save.isPending}
          onChange={(event) => save.mutate({ is_below_minimum_callback_on: event.target.checked })}
        />
        <span>
          Deposits less than the minimum amount
          <span className="block text-sm text-slate-600 dark:text-slate-400">
            A payment to an address from <code>addresses/take</code> below its currency&apos;s minimum deposit
            is held, not credited to your balance. With this on, you get a deposit callback for it with status{" "}
            <code>cancelled</code> and the error &ldquo;Transaction amount less than minimum deposit.&rdquo;
          </span>
        </span>
      </label>
      <FormError message={save.error ? errorMessage(save.error) : null} />
    </section>
  );
}

export function CallbacksClient() {
  const log = useCallbackLog();
  const resend = useResendCallback();
  return (
    <>
      <h1 className="text-2xl font-bold tracking-tight">Callbacks</h1>
      <CallbackUrlForm />
      <AdditionalCallbacks />
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
      <FormError message={resend.error ? errorMessage(resend.error) : null} />
    </>
  );
}
