import "server-only";

/** PostgreSQL error codes Kassa reacts to (both drivers report them on the error or its cause). */
export const PG = {
  uniqueViolation: "23505",
  checkViolation: "23514",
  serializationFailure: "40001",
  deadlockDetected: "40P01",
  /** Raised by kassa_refuse() (drizzle/0007): a one-statement write refused the request. */
  refused: "KASSA",
  /** Raised by kassa_post_journals() (drizzle/0010) for a journal that does not balance. */
  unbalancedJournal: "KASSJ",
} as const;

export function pgErrorCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

export function pgConstraint(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const constraint = (current as { constraint?: unknown }).constraint;
    if (typeof constraint === "string") return constraint;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  if (pgErrorCode(error) !== PG.uniqueViolation) return false;
  return constraint === undefined || pgConstraint(error) === constraint || messageNames(error, constraint);
}

/** PGlite does not always fill `constraint`; its message names it. */
function messageNames(error: unknown, constraint: string): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const message = (current as { message?: unknown }).message;
    if (typeof message === "string" && message.includes(`"${constraint}"`)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** The reason a one-statement write gave kassa_refuse(), when `error` is such a refusal. */
export function refusalReason(error: unknown): string | undefined {
  return pgMessage(error, PG.refused);
}

/** The DETAIL a refusal carries (which currency, which field), when `error` is a refusal. */
export function refusalDetail(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if ((current as { code?: unknown }).code === PG.refused) {
      const detail = (current as { detail?: unknown }).detail;
      return typeof detail === "string" ? detail : undefined;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The database's message for an error with this PostgreSQL code, when `error` has it. */
export function pgMessage(error: unknown, code: string): string | undefined {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if ((current as { code?: unknown }).code === code) return String((current as Error).message);
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
