import "server-only";

import { createHash, randomBytes } from "node:crypto";

/** A refund link's token: 256 random bits, so its SHA-256 is all that needs storing (no salt, no slow hash). */
export const newRefundToken = () => randomBytes(32).toString("base64url");

export const hashRefundToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** The hosted page a token opens. */
export const refundPath = (token: string) => `/refund/${token}`;
