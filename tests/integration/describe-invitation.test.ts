import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emails } from "@/lib/db/schema";
import { KassaError } from "@/lib/errors";
import { createMerchant } from "@/lib/merchants/create-merchant";
import { acceptInvitation } from "@/lib/team/accept-invitation";
import { describeInvitation } from "@/lib/team/describe-invitation";
import { inviteMember } from "@/lib/team/invite-member";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";

/**
 * The join page's question, "what does this link invite me to": the team and role for a link that
 * works, and for one that does not a reason naming neither (a bad, an expired, a used link).
 */
describe(`what an invitation link invites to, on ${testDriver}`, () => {
  let database: TestDatabase;
  let token: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    const owner = await createMerchant(database.db, database.box, {
      name: "Bäckerei Lindner",
      email: "owner@lindner.example",
      password: "long password 1",
    });
    await inviteMember(database.db, {
      merchantId: owner.merchantId,
      inviter: { userId: owner.userId, email: owner.email, role: "owner" },
      email: "books@lindner.example",
      role: "finance",
      baseUrl: "https://pay.example.test",
      box: database.box,
      audit: { actor: { kind: "user", userId: owner.userId, email: owner.email }, address: "198.51.100.4" },
    });
    const [mail] = await database.db
      .select()
      .from(emails)
      .where(eq(emails.recipient, "books@lindner.example"));
    token = /#token=([A-Za-z0-9_-]+)/.exec(
      database.box.open(mail!.bodySealed!, `emails:body:${mail!.id}`),
    )![1]!;
  });
  afterAll(async () => {
    await database.drop();
  });

  /** The reason a link is refused with, as the join page shows it (a 400 on the token field). */
  async function refusal(input: Parameters<typeof describeInvitation>[1]): Promise<string> {
    const error = await describeInvitation(database.db, input).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(KassaError);
    expect((error as KassaError).code).toBe("validation_failed");
    const reason = (error as KassaError).fields!.token!;
    expect(reason).not.toContain("Lindner");
    expect(reason).not.toContain("finance");
    return reason;
  }

  it("names the team, the role and the address of a link that works", async () => {
    expect(await describeInvitation(database.db, { token })).toEqual({
      team: "Bäckerei Lindner",
      role: "finance",
      email: "books@lindner.example",
    });
  });

  it("says a bad link does not work, an expired one has expired, a used one was used", async () => {
    expect(await refusal({ token: `${token.slice(0, -2)}xx` })).toMatch(
      /^This invitation link does not work/,
    );
    const inEightDays = { now: () => new Date(Date.now() + 8 * 86_400_000) };
    expect(await refusal({ token, clock: inEightDays })).toBe(
      "This invitation has expired. Ask the team for a new one.",
    );
    await acceptInvitation(database.db, { token, password: "the finance password" });
    expect(await refusal({ token })).toMatch(/^This invitation was already used\./);
  });
});
