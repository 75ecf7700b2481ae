import { eq } from "drizzle-orm";
import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { StepUpDialog } from "@/components/step-up/step-up-dialog";
import { hasSecondFactor } from "@/lib/auth/has-second-factor";
import { requireSession } from "@/lib/auth/session";
import { getDb } from "@/lib/db/client";
import { merchants } from "@/lib/db/schema";
import { can } from "@/lib/team/permissions";
import { OnboardingForm } from "./onboarding-form";

export const metadata: Metadata = { title: "Set up your account" };

export default async function OnboardingPage() {
  const session = await requireSession({ allowOnboarding: true });
  const [merchant] = await getDb()
    .select({ onboardedAt: merchants.onboardedAt })
    .from(merchants)
    .where(eq(merchants.id, session.merchantId));
  if (merchant?.onboardedAt) redirect("/dashboard");
  // Not the "not allowed" page: it is inside the dashboard, which sends an account that is not set
  // up back here, so a member who may not onboard would bounce between the two forever.
  if (!can(session.role, "settings.manage"))
    return (
      <main id="main" className="mx-auto w-full max-w-lg px-4 py-10">
        <h1 className="text-2xl font-bold tracking-tight">Not set up yet</h1>
        <p className="mt-2">
          {session.merchantName} has not finished setting up its Kassa account. An owner or an admin of your
          team must finish it before you can use the dashboard; come back then.
        </p>
      </main>
    );
  return (
    <main id="main" className="mx-auto w-full max-w-lg px-4 py-10">
      <OnboardingForm defaultName={session.merchantName} />
      {/* The first key and callback URL are confirmed like every later one. */}
      <StepUpDialog hasTotp={await hasSecondFactor(getDb(), session.userId)} />
    </main>
  );
}
