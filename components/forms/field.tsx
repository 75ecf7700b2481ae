"use client";

import type { ReactNode } from "react";
import type { FieldErrors, UseFormRegisterReturn } from "react-hook-form";

function errorAt(errors: FieldErrors, name: string): string | undefined {
  let node: unknown = errors;
  for (const key of name.split(".")) node = (node as Record<string, unknown> | undefined)?.[key];
  return (node as { message?: string } | undefined)?.message;
}

/** A labelled input with its error under it, linked for screen readers. */
export function Field({
  label,
  name,
  errors,
  register,
  type = "text",
  hint,
  idPrefix = "field",
  isRequired = false,
  children,
  ...rest
}: {
  label: string;
  name: string;
  errors: FieldErrors;
  register?: UseFormRegisterReturn;
  type?: string;
  hint?: string;
  /** Several forms on one page with the same field names need their own ids. */
  idPrefix?: string;
  /**
   * Marked before anything is submitted: a star beside the label (the form says what it means) and
   * `aria-required` on the input. A select passed as `children` sets its own `aria-required`.
   */
  isRequired?: boolean;
  children?: ReactNode;
} & Omit<React.InputHTMLAttributes<HTMLInputElement>, "name">) {
  const id = `${idPrefix}-${name.replace(/\./g, "-")}`;
  const error = errorAt(errors, name);
  const describedBy = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(" ") || undefined;
  const inputClass =
    "mt-1 block w-full rounded-md border px-3 py-2 text-base dark:bg-slate-900 " +
    (error ? "border-red-600 dark:border-red-400" : "border-slate-300 dark:border-slate-600");
  return (
    <div className="mt-3">
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
        {isRequired && <RequiredMark />}
      </label>
      {children ? (
        <div className="mt-1">{children}</div>
      ) : (
        <input
          id={id}
          type={type}
          aria-invalid={error ? true : undefined}
          aria-required={isRequired || undefined}
          aria-describedby={describedBy}
          className={inputClass}
          {...register}
          {...rest}
        />
      )}
      {hint && (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600 dark:text-slate-400">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
    </div>
  );
}

/** The star beside a required field's label; screen readers hear `aria-required` instead. */
export function RequiredMark() {
  return (
    <span aria-hidden="true" className="text-red-700 dark:text-red-300" data-required-mark="">
      {" "}
      *
    </span>
  );
}

// Plain strings live in a module without "use client": a server component importing them from
// here would get a client reference, which turns into nonsense when concatenated (the audit
// filter's controls lost their borders and width).
export { buttonClass, secondaryButtonClass, selectClass } from "./control-classes";
