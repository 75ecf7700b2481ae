import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { decodeMasterKey } from "@/lib/crypto/master-key";
import { SecretBox } from "@/lib/crypto/secret-box";

describe("secret box (AES-256-GCM)", () => {
  const box = new SecretBox(randomBytes(32));

  it("opens what it sealed, and the sealed form does not contain the secret", () => {
    const sealed = box.seal("sk_live_secret", "api_key:pk_1");
    expect(sealed).not.toContain("sk_live_secret");
    expect(box.open(sealed, "api_key:pk_1")).toBe("sk_live_secret");
  });

  it("uses a fresh nonce each time", () => {
    expect(box.seal("same", "ctx")).not.toBe(box.seal("same", "ctx"));
  });

  it("refuses a ciphertext moved to another row, tampered with, or opened with another key", () => {
    const sealed = box.seal("secret", "api_key:pk_1");
    expect(() => box.open(sealed, "api_key:pk_2")).toThrow();
    // One bit of the ciphertext flipped. (Rewriting the text's last characters could leave the bytes as
    // they were: the last base64 character carries padding bits, and one time in 256 it did.)
    const [version, payload] = sealed.split(".") as [string, string];
    const bytes = Buffer.from(payload, "base64url");
    bytes[bytes.length - 1]! ^= 1;
    const tampered = `${version}.${bytes.toString("base64url")}`;
    expect(tampered).not.toBe(sealed);
    expect(() => box.open(tampered, "api_key:pk_1")).toThrow();
    expect(() => new SecretBox(randomBytes(32)).open(sealed, "api_key:pk_1")).toThrow();
  });

  it("accepts master keys as hex or base64 of 32 bytes only", () => {
    const key = randomBytes(32);
    expect(decodeMasterKey(key.toString("hex")).equals(key)).toBe(true);
    expect(decodeMasterKey(key.toString("base64")).equals(key)).toBe(true);
    expect(() => decodeMasterKey("too-short")).toThrow(/32 bytes/);
  });
});
