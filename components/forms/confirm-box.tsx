import type { ReactNode } from "react";
import { secondaryButtonClass } from "./control-classes";

/**
 * The second question before an action that cannot be undone (cancel an invoice, mark it resolved,
 * deactivate a payment link): what will happen, a button that does it, and one that keeps things as
 * they are. While `isBusy` (the request, then the page fetched again) the first button is disabled and
 * says what is under way.
 */
export function ConfirmBox({
  children,
  confirmLabel,
  busyLabel,
  keepLabel,
  isBusy,
  onConfirm,
  onKeep,
  className = "",
}: {
  children: ReactNode;
  confirmLabel: string;
  busyLabel: string;
  keepLabel: string;
  isBusy: boolean;
  onConfirm: () => void;
  onKeep: () => void;
  className?: string;
}) {
  return (
    <div className={`rounded-md border border-amber-400 p-3 text-sm ${className}`}>
      <p>{children}</p>
      <div className="mt-2 flex flex-wrap gap-2">
        <button type="button" className={secondaryButtonClass} disabled={isBusy} onClick={onConfirm}>
          {isBusy ? busyLabel : confirmLabel}
        </button>
        <button type="button" className={secondaryButtonClass} onClick={onKeep}>
          {keepLabel}
        </button>
      </div>
    </div>
  );
}
