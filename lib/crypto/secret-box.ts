import "server-only";

import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from "node:crypto";

/**
 * AES-256-GCM for secrets at rest (API secrets, HD seeds). The associated data binds a
 * ciphertext to the row it belongs to, so a secret copied onto another row fails to open.
 * Format: "v1.<base64url(iv | tag | ciphertext)>".
 */
const VERSION = "v1";

export class SecretBox {
  readonly #key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error("the master key must be 32 bytes");
    this.#key = key;
  }

  seal(plaintext: string, associatedData: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.#key, iv);
    cipher.setAAD(Buffer.from(associatedData, "utf8"));
    const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
    const tag = cipher.getAuthTag();
    return `${VERSION}.${Buffer.concat([iv, tag, ciphertext]).toString("base64url")}`;
  }

  open(sealed: string, associatedData: string): string {
    const [version, payload] = sealed.split(".");
    if (version !== VERSION || !payload) throw new Error("unknown secret format");
    const raw = Buffer.from(payload, "base64url");
    const decipher = createDecipheriv("aes-256-gcm", this.#key, raw.subarray(0, 12));
    decipher.setAAD(Buffer.from(associatedData, "utf8"));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
  }

  /**
   * A secret the server can give out again without keeping it: HMAC-SHA256 of `data` under a key
   * derived (HKDF) from the master key for `purpose`, never the sealing key itself. A copy of the
   * database holds `data` but not the key, so it cannot make the secret (a refund link's token).
   */
  derive(purpose: string, data: string): string {
    const key = Buffer.from(hkdfSync("sha256", this.#key, Buffer.alloc(0), `kassa:${purpose}`, 32));
    return createHmac("sha256", key).update(data, "utf8").digest("base64url");
  }
}
