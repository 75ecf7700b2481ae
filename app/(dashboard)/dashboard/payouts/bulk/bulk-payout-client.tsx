"use client";

import { useRouter } from "next/navigation";
import { useEffect, useId, useState } from "react";
import { PartyFields } from "@/components/dashboard/sender-fields";
import { buttonClass, Field } from "@/components/forms/field";
import { FormError } from "@/components/forms/form-error";
import { useIsHydrated } from "@/components/forms/use-is-hydrated";
import { useKassaForm } from "@/components/forms/use-kassa-form";
import { checkPayoutFile, type FileCheck, useSendPayoutFile } from "@/components/query/use-payout-batches";
import { BatchList } from "./batch-list";
import { CheckResult } from "./check-result";
import { ColumnGuide } from "./column-guide";
import { type BulkSenderValues, bulkSenderSchema, MAX_FILE_BYTES, readFileAsBase64 } from "./file-values";

/**
 * A bulk payout in two steps: choose the sender and a file, and Kassa checks every line (sending
 * nothing); then, the problems fixed or left out by choice, one confirmation sends them all.
 */
export function BulkPayoutClient({ merchantName }: { merchantName: string }) {
  const isHydrated = useIsHydrated();
  const router = useRouter();
  const fileId = useId();
  const form = useKassaForm<BulkSenderValues>(bulkSenderSchema, {
    defaultValues: { sender_type: "legal", sender_data: { legal_name: merchantName } },
  });
  const { register, watch, formState } = form;
  const [file, setFile] = useState<{ name: string; base64: string } | null>(null);
  const [fileProblem, setFileProblem] = useState<string | null>(null);
  const [check, setCheck] = useState<FileCheck | null>(null);
  const [sendValidRows, setSendValidRows] = useState(false);
  const send = useSendPayoutFile();
  // A change of sender or reference after the check makes the check stale: check again.
  useEffect(() => {
    const subscription = watch(() => setCheck(null));
    return () => subscription.unsubscribe();
  }, [watch]);

  const chooseFile = async (chosen: File | undefined) => {
    setCheck(null);
    setFile(null);
    setFileProblem(null);
    setSendValidRows(false);
    if (!chosen) return;
    if (chosen.size > MAX_FILE_BYTES) {
      setFileProblem(
        `The file is ${(chosen.size / 1024 / 1024).toFixed(1)} MB; a bulk payout file may be at most 1 MB (1,000 payouts). Split it into several files.`,
      );
      return;
    }
    setFile({ name: chosen.name, base64: await readFileAsBase64(chosen) });
  };

  const body = (values: BulkSenderValues) => ({
    file: file!.base64,
    sender_type: values.sender_type,
    sender_data: values.sender_data as Record<string, string>,
    reference: values.reference?.trim() || undefined,
  });
  const runCheck = form.submitWith(async (values) => {
    if (!file) {
      setFileProblem("Choose the CSV file of your payouts.");
      return;
    }
    setCheck(await checkPayoutFile(body(values)));
  });
  const confirm = form.submitWith(async (values) => {
    const sent = await send.mutateAsync({ ...body(values), send_valid_rows: sendValidRows });
    router.push(`/dashboard/payouts/bulk/${sent.id}`);
  });

  const { errors, isSubmitting } = formState;
  return (
    <>
      <h1 className="text-2xl font-bold tracking-tight">Bulk payouts</h1>
      <p className="mt-1 max-w-2xl text-sm">
        Pay up to 1,000 people from one CSV file: one line per payout. Kassa checks every line first and sends
        nothing until you confirm; your balances must cover the whole file, fees included.
      </p>
      <p className="mt-2 text-sm">
        <a href="/api/dashboard/payout-batches/template" download className="underline">
          Download the template
        </a>{" "}
        (the columns, named in its first line).
      </p>
      <ColumnGuide />
      <form onSubmit={runCheck} noValidate className="mt-4 max-w-3xl">
        <PartyFields
          side="sender"
          title="You (sender of every payout)"
          type={watch("sender_type")}
          typeField={register("sender_type")}
          dataField={(key) => register(`sender_data.${key}`)}
          errors={errors}
        />
        <Field
          label="Reference (optional)"
          name="reference"
          errors={errors}
          register={register("reference")}
          hint="Your name for this batch. Left empty, the file itself is its reference: the same file is recognised and never sent twice."
        />
        <div className="mt-3">
          <label htmlFor={fileId} className="block text-sm font-medium">
            CSV file
          </label>
          <input
            id={fileId}
            type="file"
            accept=".csv,text/csv"
            aria-describedby={fileProblem ? `${fileId}-error` : undefined}
            aria-invalid={fileProblem ? true : undefined}
            className="mt-1 block w-full text-sm"
            onChange={(event) => void chooseFile(event.target.files?.[0])}
          />
          {fileProblem && (
            <p id={`${fileId}-error`} role="alert" className="mt-1 text-sm text-red-700 dark:text-red-300">
              {fileProblem}
            </p>
          )}
        </div>
        <FormError message={form.formError} />
        {!check && (
          <button type="submit" disabled={!isHydrated || isSubmitting} className={`mt-4 ${buttonClass}`}>
            {isSubmitting ? "Checking every line…" : "Check file"}
          </button>
        )}
      </form>
      {check && (
        <CheckResult
          check={check}
          fileName={file?.name ?? ""}
          sendValidRows={sendValidRows}
          onSendValidRows={setSendValidRows}
          isSending={isSubmitting}
          onSend={confirm}
        />
      )}
      <BatchList />
    </>
  );
}
