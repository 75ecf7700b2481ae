export default function PaymentLinkNotFound() {
  return (
    <main id="main" className="mx-auto w-full max-w-md px-4 py-10">
      <h1 className="text-2xl font-bold tracking-tight">We can&apos;t find this payment link</h1>
      <p className="mt-3 text-slate-700 dark:text-slate-300">
        The link may be mistyped or incomplete. Open it again from the shop&apos;s e-mail or page, or ask the
        shop for a new one. Nothing has been charged.
      </p>
    </main>
  );
}
