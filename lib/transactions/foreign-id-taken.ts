import "server-only";

import { isUniqueViolation } from "@/lib/db/errors";
import { fieldError, type KassaError } from "@/lib/errors";

/** The answer to a transaction whose foreign_id the merchant already used: it is unique per merchant. */
export const FOREIGN_ID_TAKEN = { foreign_id: "The foreign id has already been taken." };

/** That answer when `error` is the unique index refusing a repeated foreign_id, else undefined. */
export function foreignIdTakenError(error: unknown): KassaError | undefined {
  if (isUniqueViolation(error, "transactions_merchant_foreign_id_key")) return fieldError(FOREIGN_ID_TAKEN);
  return undefined;
}
