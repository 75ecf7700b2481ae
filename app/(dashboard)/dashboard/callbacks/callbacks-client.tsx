"use client";

import { useEffect, useState } from "react";
import type { z } from "zod";
import { buttonClass, Field } from "@/components/forms/field";
import { errorMessage, FormError } from "@/components/forms/form-error";
import { formSchema } from "@/components/forms/form-schema";
import { useIsHydrated } from "@/components/forms/use-is-hydrated";
import { useKassaForm } from "@/components/forms/use-kassa-form";
import {
  useCallbackLog,
  useCallbackSettings,
  useCallbackUrl,
  useRetryPendingCallbacks,
  useSaveCallbackSettings,
  useSaveCallbackUrl,
} from "@/components/query/use-callbacks";
import type { callbackUrlRequest } from "@/lib/schemas/dashboard";
import { CallbackKey } from "./callback-key";
import { DeliveryLog } from "./delivery-log";
import { RetryPending } from "./retry-pending";
import { SigningHelp } from "./signing-help";
import { TestCallback } from "./test-callback";

const schema = formSchema(() => import("@/lib/schemas/dashboard").then((m) => m.callbackUrlRequest), {
  isEmptyMeaningful: true, // an empty URL stops callbacks
});

/** A change of URL is confirmed in the dashboard's one dialog (components/step-up). */
function CallbackUrlForm() {
  const isHydrated = useIsHydrated();
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
      <p className="mt-1 text-sm" role="status">
        {save.isSuccess
          ? save.data.callback_url
            ? "Saved. Pending callbacks go to this URL from their next try."
            : "Saved. Callbacks are off until you set a URL."
          : ""}
      </p>
      <button type="submit" disabled={!isHydrated || save.isPending} className={`mt-2 ${buttonClass}`}>
        {save.isPending ? "Saving…" : "Save"}
      </button>
    </form>
  );
}

/** The public API's optional callbacks, each turned on or off at once (no Save button). */
function AdditionalCallbacks() {
  const settings = useCallbackSettings();
  const save = useSaveCallbackSettings();
  // The merchant's click, held in React state set inside the event so the box shows it at once: the
  // mutation's own state arrives a tick later, and a controlled box would spring back meanwhile.
  const [choice, setChoice] = useState<boolean | null>(null);
  const saved = settings.data?.is_below_minimum_callback_on;
  useEffect(() => {
    // Once the server's value agrees (or the save failed), the server's value is shown again, so a
    // change made elsewhere later is not hidden behind an old click.
    if (choice !== null && !save.isPending && (saved === choice || save.isError)) setChoice(null);
  }, [choice, saved, save.isPending, save.isError]);
  const isOn = choice ?? saved ?? false;
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
          onChange={(event) => {
            setChoice(event.target.checked);
            save.mutate({ is_below_minimum_callback_on: event.target.checked });
          }}
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

/** Pending callbacks and the offer to send them all now: shown under the URL, where it is fixed. */
function PendingOffer() {
  const log = useCallbackLog();
  const retry = useRetryPendingCallbacks();
  const pending = log.data?.pending_count ?? 0;
  return (
    <>
      {pending > 0 && <RetryPending pending={pending} retry={retry} />}
      <p role="status" className="mt-2 text-sm">
        {retry.isSuccess
          ? retry.data.retried === 0
            ? "Nothing was pending any more."
            : `${retry.data.retried} callback${retry.data.retried === 1 ? "" : "s"} sent for delivery now.`
          : ""}
      </p>
    </>
  );
}

export function CallbacksClient({ isOwner }: { isOwner: boolean }) {
  return (
    <>
      <h1 className="text-2xl font-bold tracking-tight">Callbacks</h1>
      <CallbackUrlForm />
      <TestCallback />
      <PendingOffer />
      <CallbackKey isOwner={isOwner} />
      <AdditionalCallbacks />
      <DeliveryLog />
      <SigningHelp />
    </>
  );
}
