import { IntentLink } from "@/components/dashboard/intent-link";
import { DASHBOARD_PAGES } from "@/components/dashboard/pages";
import type { GettingStarted } from "@/lib/merchants/load-getting-started";
import { can, type Role } from "@/lib/team/permissions";

// Each open step's label is its link. The labels must not contain a navigation label ("API keys",
// "Callbacks", "Sandbox", "New invoice"...), or a link looked up by its name would find two.
type Step = { isDone: boolean; label: string; href: string };

function stepsOf(progress: GettingStarted, isSandbox: boolean): Step[] {
  return [
    {
      isDone: progress.hasApiKey,
      label: "Create an API key",
      href: "/dashboard/keys",
    },
    {
      isDone: progress.hasCallbackUrl,
      label: "Set your callback URL",
      href: "/dashboard/callbacks",
    },
    {
      isDone: progress.hasInvoice,
      label: "Create your first invoice",
      href: "/dashboard/invoices/new",
    },
    isSandbox
      ? {
          isDone: progress.hasPayment,
          label: "Make a test payment",
          href: "/dashboard/sandbox",
        }
      : {
          isDone: progress.hasPayment,
          label: "Receive your first payment",
          href: "/dashboard/invoices",
        },
  ];
}

/**
 * The overview's first-run checklist, ticked from what exists (loadGettingStarted), each step
 * linking to where it is done. Once every step is done it has nothing left to say and is not drawn.
 */
export function GettingStartedChecklist({
  progress,
  isSandbox,
  role,
}: {
  progress: GettingStarted;
  isSandbox: boolean;
  role: Role;
}) {
  const steps = stepsOf(progress, isSandbox);
  // A step on a page the role may not open is named, not linked: the link led to "Not allowed".
  const mayOpen = (href: string) => {
    const page = DASHBOARD_PAGES.find((p) => p.href === href);
    return !page || can(role, page.permission);
  };
  const doneCount = steps.filter((s) => s.isDone).length;
  if (doneCount === steps.length) return null;
  return (
    <section
      aria-labelledby="getting-started-title"
      className="mb-8 rounded-md border border-indigo-200 bg-indigo-50 p-4 dark:border-indigo-900 dark:bg-indigo-950"
    >
      <h2 id="getting-started-title" className="text-lg font-semibold">
        Getting started
      </h2>
      <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
        {doneCount} of {steps.length} done. This list goes away once all are done.
      </p>
      <ol className="mt-3 space-y-2">
        {steps.map((step) => (
          <li key={step.label} className="flex items-start gap-x-3">
            <span
              aria-hidden="true"
              className={`mt-0.5 inline-flex size-5 shrink-0 items-center justify-center rounded-full border text-xs ${
                step.isDone
                  ? "border-emerald-700 bg-emerald-700 text-white"
                  : "border-slate-400 bg-white dark:bg-slate-900"
              }`}
            >
              {step.isDone ? "✓" : ""}
            </span>
            {step.isDone ? (
              <span className="text-slate-600 line-through dark:text-slate-400">
                {step.label}
                <span className="sr-only"> (done)</span>
              </span>
            ) : !mayOpen(step.href) ? (
              <span>
                {step.label}
                <span className="text-sm text-slate-700 dark:text-slate-300">
                  {" "}
                  (your role, {role}, cannot do this)
                </span>
              </span>
            ) : (
              <IntentLink
                href={step.href}
                className="font-medium text-indigo-700 underline dark:text-indigo-300"
              >
                {step.label}
              </IntentLink>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}
