/** A status message on the checkout: one of these at a time, inside the page's only live region. */
export function Notice({
  tone,
  title,
  children,
}: {
  tone: "info" | "success" | "warning" | "error";
  title: string;
  children?: React.ReactNode;
}) {
  const tones = {
    info: "border-sky-300 bg-sky-50 text-sky-950 dark:border-sky-800 dark:bg-sky-950 dark:text-sky-100",
    success:
      "border-emerald-300 bg-emerald-50 text-emerald-950 dark:border-emerald-800 dark:bg-emerald-950 dark:text-emerald-100",
    warning:
      "border-amber-300 bg-amber-50 text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100",
    error: "border-red-300 bg-red-50 text-red-950 dark:border-red-800 dark:bg-red-950 dark:text-red-100",
  };
  return (
    <div className={`mt-4 rounded-md border px-4 py-3 ${tones[tone]}`}>
      <h2 className="font-semibold">{title}</h2>
      {children && <div className="mt-1 text-sm">{children}</div>}
    </div>
  );
}
