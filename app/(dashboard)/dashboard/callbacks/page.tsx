import type { Metadata } from "next";
import { requireSession } from "@/lib/auth/session";
import { CallbacksClient } from "./callbacks-client";

export const metadata: Metadata = { title: "Callbacks" };

export default async function CallbacksPage() {
  await requireSession({ permission: "callbacks.manage" });
  return <CallbacksClient />;
}
