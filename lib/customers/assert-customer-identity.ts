import { eq, type SQL, sql } from "drizzle-orm";
import type { Db, Executor } from "@/lib/db/client";
import { refusalReason } from "@/lib/db/errors";
import { customers } from "@/lib/db/schema";
import { inTransaction, withRetries } from "@/lib/db/transaction";
import { fieldError } from "@/lib/errors";
import type { Sender } from "@/lib/schemas/common";

const normalize = (value: string | null | undefined) =>
  (value ?? "").trim().replace(/\s+/g, " ").toLowerCase();

export type CustomerInput = { merchantId: number; endUserReference: string } & Sender;

function identityValues(input: CustomerInput) {
  return input.sender_type === "natural"
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
}

/**
 * Spec 2.1: `sender_data` and `end_user_reference` must describe the same customer. The first
 * request that names a reference records who it is; a later request under the same reference
 * that names a different person (another date of birth, or a legal entity where a person was)
 * or a different legal entity (another name or country) is refused with a field error.
 *
 * Names of natural persons may change (marriage, a typo fixed), so they are updated rather than
 * compared; the date of birth is what identifies the person. The optional e-mail is updated too.
 */
export async function assertCustomerIdentity(tx: Executor, input: CustomerInput): Promise<void> {
  const data = input.sender_data;
  const values = identityValues(input);

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

/**
 * The same check inside a one-statement write: two CTEs for the head of a `with`, `customer` (the
 * upsert) and `identity_ok` (one row when the write may go on). It goes on for a new customer and
 * for a known one the request describes exactly as recorded, the usual repeat. Anything else (a
 * name to update, a legal name spelled differently, a real conflict) leaves `identity_ok` empty: the
 * statement refuses with reason "identity", and the caller runs assertCustomerIdentity in a
 * transaction, then the statement again with `isChecked`, so the rules above live in one place.
 */
export function customerIdentityCtes(input: CustomerInput, isChecked: boolean): SQL {
  const values = identityValues(input);
  const email = input.sender_data.email ?? null;
  const isSame =
    values.type === "natural"
      ? sql`date_of_birth = ${values.dateOfBirth} and first_name = ${values.firstName} and last_name = ${values.lastName}`
      : sql`legal_name = ${values.legalName} and country_of_registration = ${values.countryOfRegistration}`;
  return sql`customer as (
      insert into customers (merchant_id, end_user_reference, type, first_name, last_name, date_of_birth,
                             legal_name, country_of_registration, email)
      values (${input.merchantId}, ${input.endUserReference}, ${values.type}, ${values.firstName},
              ${values.lastName}, ${values.dateOfBirth}, ${values.legalName}, ${values.countryOfRegistration},
              ${email})
      on conflict (merchant_id, end_user_reference) do update set updated_at = customers.updated_at
      returning xmax = 0 as is_new, type, first_name, last_name, date_of_birth, legal_name,
                country_of_registration, email),
    identity_ok as (
      select 1 from customer
      where ${isChecked}::boolean or is_new
         or (type = ${values.type} and ${isSame} and (${email}::text is null or email = ${email})))`;
}

/**
 * Runs a one-statement write that starts with customerIdentityCtes: on its own first (one round
 * trip, its row locks held only inside the database), and when it refuses for "identity", again
 * in a transaction after assertCustomerIdentity has checked and updated the customer.
 */
export async function writeForCustomer<T>(
  db: Db,
  customer: CustomerInput,
  write: (executor: Executor, isIdentityChecked: boolean) => Promise<T>,
): Promise<T> {
  try {
    return await withRetries(() => write(db, false));
  } catch (error) {
    if (refusalReason(error) !== "identity") throw error;
  }
  return inTransaction(db, async (tx) => {
    await assertCustomerIdentity(tx, customer);
    return write(tx, true);
  });
}
