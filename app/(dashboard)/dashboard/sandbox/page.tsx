import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requireSession } from "@/lib/auth/session";
import { getConfig } from "@/lib/runtime";
import { SandboxClient } from "./sandbox-client";

export const metadata: Metadata = { title: "Sandbox" };

export default async function SandboxPage() {
  if (!getConfig().isSandbox) notFound();
  await requireSession({ permission: "sandbox.use" });
  return <SandboxClient />;
}
