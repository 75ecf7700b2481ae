import "server-only";

import { createHash, randomBytes } from "node:crypto";
import type { SecretBox } from "@/lib/crypto/secret-box";

/**
 * A refund link's token: derived from a random nonce under the master key (SecretBox.derive), so
 * the rows keep only the nonce and the token's hash, yet the server can show the link again (the
 * customer's checkout page links to it). 256 bits: its SHA-256 needs no salt or slow hash.
 */
export const newRefundNonce = () => randomBytes(16).toString("hex");

export const refundToken = (box: SecretBox, nonce: string) => box.derive("refund-link", nonce);

export const hashRefundToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** The hosted page a token opens. */
export const refundPath = (token: string) => `/refund/${token}`;
