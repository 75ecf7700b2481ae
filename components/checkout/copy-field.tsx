"use client";

import type { ReactNode } from "react";
import { useCopy } from "./use-copy";

/**
 * A value the customer copies into a wallet: shown in full (wrapped, never truncated) with a copy
 * button; `badge` (the sandbox label of an address) follows the label.
 */
export function CopyField({
  label,
  value,
  hint,
  badge,
}: {
  label: string;
  value: string;
  hint?: string;
  badge?: ReactNode;
}) {
  const { isCopied, copy } = useCopy(value);
  return (
    <div className="mt-4">
      <div className="text-sm font-medium text-slate-600 dark:text-slate-300">
        {label}
        {badge}
      </div>
      <div className="mt-1 flex items-start gap-2">
        <output className="min-w-0 flex-1 break-all rounded-md bg-slate-100 px-3 py-2 font-mono text-base dark:bg-slate-800">
          {value}
        </output>
        <button
          type="button"
          onClick={copy}
          className="shrink-0 rounded-md border border-slate-300 px-3 py-2 text-sm font-medium hover:bg-slate-50 dark:border-slate-600 dark:hover:bg-slate-800"
          aria-label={`Copy ${label.toLowerCase()}`}
        >
          {isCopied ? "Copied" : "Copy"}
        </button>
      </div>
      {hint && <p className="mt-1 text-sm text-amber-800 dark:text-amber-300">{hint}</p>}
      <span className="sr-only" aria-live="polite">
        {isCopied ? `${label} copied` : ""}
      </span>
    </div>
  );
}
