import "server-only";

import { type SQL, sql } from "drizzle-orm";
import { type Executor, queryRows } from "@/lib/db/client";
import { refusalDetail, refusalReason } from "@/lib/db/errors";
import { fieldError, type KassaError } from "@/lib/errors";
import type { Sender } from "@/lib/schemas/common";

export type CustomerInput = { merchantId: number; endUserReference: string } & Sender;

/** What differs, in a merchant's words, for each field kassa_check_customer() can name. */
const DIFFERENCES: Record<string, string> = {
  sender_type: "sender type",
  "sender_data.date_of_birth": "date of birth",
  "sender_data.legal_name": "legal name",
  "sender_data.country_of_registration": "country of registration",
};

/**
 * Spec 2.1: `sender_data` and `end_user_reference` must describe one customer, as checked by the database
 * function kassa_check_customer() (drizzle/0010): the first naming records it, another person or entity
 * is refused, a person's new name and e-mail are updated. Put this first in a one-statement write's WITH;
 * a refusal aborts the statement, and customerIdentityError() turns it into a field error.
 */
export function customerIdentitySql(input: CustomerInput): SQL {
  const isNatural = input.sender_type === "natural";
  const data = input.sender_data as Record<string, string | undefined>;
  const text = (value: string | undefined) => sql`${value ?? null}::text`;
  return sql`kassa_check_customer(${input.merchantId}::bigint, ${input.endUserReference}::text,
    ${input.sender_type}::text, ${text(isNatural ? data.first_name : undefined)},
    ${text(isNatural ? data.last_name : undefined)}, ${text(isNatural ? data.date_of_birth : undefined)},
    ${text(isNatural ? undefined : data.legal_name)}, ${text(isNatural ? undefined : data.country_of_registration)},
    ${text(data.email)})`;
}

/** The field error for a refusal of kassa_check_customer(), if `error` is one. */
export function customerIdentityError(error: unknown): KassaError | undefined {
  if (refusalReason(error) !== "identity") return undefined;
  const field = refusalDetail(error) ?? "end_user_reference";
  return fieldError({
    [field]: `This end_user_reference already belongs to a customer with a different ${DIFFERENCES[field] ?? "identity"}; sender_data and end_user_reference must describe the same customer.`,
  });
}

/** The same check on its own, in the caller's transaction (addresses/take, tests). */
export async function assertCustomerIdentity(tx: Executor, input: CustomerInput): Promise<void> {
  try {
    // Raw: a call of the PL/pgSQL check (migration 0010), which the query builder cannot express.
    await queryRows(tx, sql`select ${customerIdentitySql(input)}`);
  } catch (error) {
    throw customerIdentityError(error) ?? error;
  }
}
