import { eq } from "drizzle-orm";
import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { requireSession } from "@/lib/auth/session";
import { getDb } from "@/lib/db/client";
import { merchants } from "@/lib/db/schema";
import { OnboardingForm } from "./onboarding-form";

export const metadata: Metadata = { title: "Set up your account" };

export default async function OnboardingPage() {
  const session = await requireSession({ allowOnboarding: true, permission: "settings.manage" });
  const [merchant] = await getDb()
    .select({ onboardedAt: merchants.onboardedAt })
    .from(merchants)
    .where(eq(merchants.id, session.merchantId));
  if (merchant?.onboardedAt) redirect("/dashboard");
  return (
    <main id="main" className="mx-auto w-full max-w-lg px-4 py-10">
      <OnboardingForm defaultName={session.merchantName} />
    </main>
  );
}
