/**
 * Marks an address of the sandbox chain (DESIGN.md section 5): a customer or merchant must never
 * mistake it for one that takes real funds. Visible, and read out by screen readers with the reason.
 */
export function SandboxBadge() {
  return (
    <span className="ml-2 inline-block rounded bg-amber-100 px-1.5 py-0.5 align-middle font-sans text-xs font-semibold uppercase tracking-wide text-amber-900 dark:bg-amber-900 dark:text-amber-50">
      Sandbox
      <span className="sr-only"> address, on a test network: send no real funds to it</span>
    </span>
  );
}
