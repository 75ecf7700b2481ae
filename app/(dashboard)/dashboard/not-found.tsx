import { IntentLink } from "@/components/dashboard/intent-link";

/**
 * Unknown dashboard paths ([...missing]) and ids that are not the merchant's (a detail page's
 * notFound()) land here, inside the dashboard's navigation, so the way back is one click away. The
 * wording does not say whether an id exists for another merchant.
 */
export default function DashboardNotFound() {
  const link = "text-indigo-700 underline dark:text-indigo-300";
  return (
    <section aria-labelledby="not-found-title" className="max-w-xl">
      <h1 id="not-found-title" className="text-2xl font-bold tracking-tight">
        Page not found
      </h1>
      <p className="mt-3 text-slate-700 dark:text-slate-300">
        There is no such page in your dashboard, or the invoice or transaction it names is not in your
        account. Check the address, or find it from one of these pages:
      </p>
      <ul className="mt-3 list-disc space-y-1 pl-6">
        <li>
          <IntentLink href="/dashboard" className={link}>
            Overview
          </IntentLink>
        </li>
        <li>
          <IntentLink href="/dashboard/invoices" className={link}>
            Invoices
          </IntentLink>
        </li>
        <li>
          <IntentLink href="/dashboard/transactions" className={link}>
            Transactions
          </IntentLink>
        </li>
      </ul>
    </section>
  );
}
