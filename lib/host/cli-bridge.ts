import "server-only";

import { timingSafeEqual } from "node:crypto";
import { type CliEnvironment, runCliCommand } from "@/lib/cli/commands";
import { KassaError } from "@/lib/errors";

export type CliBridgeAnswer = { status: number; body: unknown };

function tokensMatch(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

const notFound: CliBridgeAnswer = { status: 404, body: { error: "Not found", code: "not_found" } };

/**
 * Runs an ops CLI command for a CLI process on this machine while this server holds the embedded
 * database. The server passes on only loopback callers; here the token must match the one in the
 * lock file (readable by the data directory's owner only). Everyone else gets the API's plain 404.
 */
export async function answerCliBridge(
  request: { token: string; body: string },
  env: CliEnvironment & { token: string },
): Promise<CliBridgeAnswer> {
  if (!request.token || !tokensMatch(request.token, env.token)) return notFound;
  try {
    const result = await runCliCommand(JSON.parse(request.body), env);
    return { status: 200, body: { ok: true, result } };
  } catch (error) {
    if (error instanceof KassaError) {
      return {
        status: 200,
        body: { ok: false, error: { code: error.code, message: error.message, fields: error.fields } },
      };
    }
    console.error("[cli-bridge] command failed:", error);
    return {
      status: 500,
      body: {
        ok: false,
        error: { code: "internal_error", message: "The command failed; see the server log." },
      },
    };
  }
}
