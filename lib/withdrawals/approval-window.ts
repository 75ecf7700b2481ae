import "server-only";

/**
 * How long a withdrawal waits for a second person's approval before it expires, unless
 * KASSA_WITHDRAWAL_APPROVAL_SECONDS says otherwise: 72 hours.
 */
export const DEFAULT_APPROVAL_SECONDS = 72 * 3600;
