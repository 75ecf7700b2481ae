import { type FormSchema, formSchema } from "@/components/forms/form-schema";

/** The browser's own limit before uploading; the server holds files to the same 1 MB. */
export const MAX_FILE_BYTES = 1024 * 1024;

/** The form's fields besides the file: the sender (spec 2.1's union) and an optional reference. */
export type BulkSenderValues = {
  sender_type: "natural" | "legal";
  sender_data: Record<string, string | undefined>;
  reference?: string;
};

export const bulkSenderSchema: FormSchema<BulkSenderValues> = formSchema<BulkSenderValues>(() =>
  import("@/lib/schemas/payout-batches").then((m) => m.payoutFileForm as never),
);

/** A chosen file's bytes as base64, as the check and send requests carry them. */
export async function readFileAsBase64(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = "";
  // In slices: String.fromCharCode takes its bytes as arguments, and a call has a limit on them.
  for (let start = 0; start < bytes.length; start += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(start, start + 0x8000));
  return btoa(binary);
}
