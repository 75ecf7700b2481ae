import { afterEach, describe, expect, it } from "vitest";
import { POST } from "@/app/internal/engine/route";
import { ENGINE_TOKEN_ENV, ENGINE_TOKEN_HEADER } from "@/server/engine-contract";

/**
 * The engine's route (app/internal/engine/route.ts) opens only for the token the server put in the
 * environment. Whatever else a caller sends, it answers 404 and runs nothing.
 */
describe("the engine's door", () => {
  const token = "a".repeat(64);
  afterEach(() => {
    delete process.env[ENGINE_TOKEN_ENV];
  });

  const knock = (headers: Record<string, string>) =>
    POST(
      new Request("http://127.0.0.1/internal/engine", {
        method: "POST",
        headers,
        body: JSON.stringify({ action: "port" }),
      }),
    );

  it.each([
    ["no token", {}],
    ["a wrong token of the same length", { [ENGINE_TOKEN_HEADER]: "b".repeat(64) }],
    ["a shorter token", { [ENGINE_TOKEN_HEADER]: "a".repeat(63) }],
    // Same length in characters, longer in bytes: a byte-wise comparison of unequal lengths throws.
    ["a non-ASCII token of the same length", { [ENGINE_TOKEN_HEADER]: "é".repeat(64) }],
  ])("stays shut for %s", async (_, headers) => {
    process.env[ENGINE_TOKEN_ENV] = token;
    const response = await knock(headers);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: "Not found", code: "not_found" });
  });

  it("stays shut when the server set no token at all", async () => {
    const response = await knock({ [ENGINE_TOKEN_HEADER]: "" });
    expect(response.status).toBe(404);
  });
});
