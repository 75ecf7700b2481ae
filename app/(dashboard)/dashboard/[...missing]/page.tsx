import { notFound } from "next/navigation";

/**
 * Any /dashboard/... path no page matches: without this, Next answers with the bare root 404 outside
 * the dashboard's frame. The layout above has already required a session, so signed-out visitors
 * still go to sign-in first.
 */
export default function MissingDashboardPage() {
  notFound();
}
