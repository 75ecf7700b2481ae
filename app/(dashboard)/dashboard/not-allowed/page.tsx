import type { Metadata } from "next";
import { IntentLink } from "@/components/dashboard/intent-link";
import { requireSession } from "@/lib/auth/session";
import { notAllowedMessage } from "@/lib/team/permissions";

export const metadata: Metadata = { title: "Not allowed" };

/** Where a page the signed-in role may not open sends the browser (lib/auth/session.ts requireSession). */
export default async function NotAllowedPage() {
  const session = await requireSession();
  return (
    <>
      <h1 className="text-2xl font-bold tracking-tight">Not allowed</h1>
      <p className="mt-2 max-w-2xl">{notAllowedMessage(session.role)}</p>
      <p className="mt-4">
        <IntentLink href="/dashboard" className="underline">
          Back to the overview
        </IntentLink>
      </p>
    </>
  );
}
