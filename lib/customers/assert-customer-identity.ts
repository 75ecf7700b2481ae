import { eq, sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { customers } from "@/lib/db/schema";
import { fieldError } from "@/lib/errors";
import type { Sender } from "@/lib/schemas/common";

const normalize = (value: string | null | undefined) =>
  (value ?? "").trim().replace(/\s+/g, " ").toLowerCase();

/**
 * Spec 2.1: `sender_data` and `end_user_reference` must describe the same customer. The first
 * request that names a reference records who it is; a later request under the same reference
 * that names a different person (another date of birth, or a legal entity where a person was)
 * or a different legal entity (another name or country) is refused with a field error.
 *
 * Names of natural persons may change (marriage, a typo fixed), so they are updated rather than
 * compared; the date of birth is what identifies the person. The optional e-mail is updated too.
 */
export async function assertCustomerIdentity(
  tx: Executor,
  input: { merchantId: number; endUserReference: string } & Sender,
): Promise<void> {
  const data = input.sender_data;
  const values =
    input.sender_type === "natural"
      ? {
          type: "natural" as const,
          firstName: input.sender_data.first_name,
          lastName: input.sender_data.last_name,
          dateOfBirth: input.sender_data.date_of_birth,
          legalName: null,
          countryOfRegistration: null,
        }
      : {
          type: "legal" as const,
          firstName: null,
          lastName: null,
          dateOfBirth: null,
          legalName: input.sender_data.legal_name,
          countryOfRegistration: input.sender_data.country_of_registration,
        };

  // One round trip in the usual cases: a new customer is inserted; a known one comes back (locked
  // for this transaction by the no-op update) to be compared.
  const [known] = await tx
    .insert(customers)
    .values({
      merchantId: input.merchantId,
      endUserReference: input.endUserReference,
      email: data.email,
      ...values,
    })
    .onConflictDoUpdate({
      target: [customers.merchantId, customers.endUserReference],
      set: { updatedAt: sql`${customers.updatedAt}` },
    })
    .returning({
      id: customers.id,
      isNew: sql<boolean>`xmax = 0`,
      type: customers.type,
      firstName: customers.firstName,
      lastName: customers.lastName,
      dateOfBirth: customers.dateOfBirth,
      legalName: customers.legalName,
      countryOfRegistration: customers.countryOfRegistration,
      email: customers.email,
    });
  if (!known || known.isNew) return;

  const conflict = (field: string, what: string) =>
    fieldError({
      [field]: `This end_user_reference already belongs to a customer with a different ${what}; sender_data and end_user_reference must describe the same customer.`,
    });
  if (known.type !== values.type) throw conflict("sender_type", "sender type");
  if (values.type === "natural") {
    if (known.dateOfBirth !== values.dateOfBirth)
      throw conflict("sender_data.date_of_birth", "date of birth");
  } else {
    if (normalize(known.legalName) !== normalize(values.legalName))
      throw conflict("sender_data.legal_name", "legal name");
    if (known.countryOfRegistration !== values.countryOfRegistration) {
      throw conflict("sender_data.country_of_registration", "country of registration");
    }
  }
  const update = {
    firstName: values.firstName ?? known.firstName,
    lastName: values.lastName ?? known.lastName,
    email: data.email ?? known.email,
  };
  const isChanged =
    update.firstName !== known.firstName ||
    update.lastName !== known.lastName ||
    update.email !== known.email;
  if (isChanged) {
    await tx
      .update(customers)
      .set({ ...update, updatedAt: sql`now()` })
      .where(eq(customers.id, known.id));
  }
}
