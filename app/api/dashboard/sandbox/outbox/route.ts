import { desc, eq } from "drizzle-orm";
import { withSession } from "@/lib/api/with-session";
import { emails } from "@/lib/db/schema";

/** The e-mails Kassa sent (or kept, without SMTP) to this merchant's customers. */
export const GET = withSession(
  { permission: "sandbox.use", isSandboxOnly: true },
  async ({ db, session }) => ({
    emails: (
      await db
        .select()
        .from(emails)
        .where(eq(emails.merchantId, session.merchantId))
        .orderBy(desc(emails.id))
        .limit(50)
    ).map((e) => ({
      id: e.id,
      kind: e.kind,
      recipient: e.recipient,
      subject: e.subject,
      body: e.body,
      status: e.status,
      transaction_id: e.transactionId,
      created_at: e.createdAt.toISOString(),
    })),
  }),
);
