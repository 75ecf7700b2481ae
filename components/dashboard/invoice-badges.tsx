import { EXCEPTION_LABELS, type InvoiceException } from "./invoice-status";

const TONES: Record<InvoiceException, string> = {
  underpaid: "border-amber-600 text-amber-900 dark:text-amber-200",
  overpaid: "border-sky-600 text-sky-900 dark:text-sky-200",
  late: "border-rose-600 text-rose-900 dark:text-rose-200",
};

/** Exception badges in words (never colour alone), for the invoice list and page. */
export function InvoiceBadges({ exceptions }: { exceptions: readonly InvoiceException[] }) {
  return (
    <>
      {exceptions.map((exception) => (
        <span key={exception} className={`rounded border px-1.5 text-xs font-medium ${TONES[exception]}`}>
          {EXCEPTION_LABELS[exception]}
        </span>
      ))}
    </>
  );
}
