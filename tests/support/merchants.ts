import { expect } from "vitest";
import { KassaError } from "@/lib/errors";
import { createMerchant } from "@/lib/merchants/create-merchant";
import type { TestDatabase } from "./database";

/** A merchant of the test file's own, named `name` (its e-mail is the name in lower case): its id. */
export async function createTestMerchant(database: TestDatabase, name: string): Promise<number> {
  const { merchantId } = await createMerchant(database.db, database.box, {
    name,
    email: `${name.toLowerCase()}@example.com`,
    password: "long password 1",
  });
  return merchantId;
}

/** The field errors of a request the engine refused (the promise must reject with a KassaError). */
export async function fieldsOf(promise: Promise<unknown>): Promise<Record<string, string>> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(KassaError);
  return (error as KassaError).fields ?? {};
}
