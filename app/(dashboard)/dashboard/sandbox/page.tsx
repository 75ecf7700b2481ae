import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getConfig } from "@/lib/runtime";
import { SandboxClient } from "./sandbox-client";

export const metadata: Metadata = { title: "Sandbox" };

export default function SandboxPage() {
  if (!getConfig().isSandbox) notFound();
  return <SandboxClient />;
}
