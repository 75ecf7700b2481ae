import "server-only";

import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { runCliCommand } from "@/lib/cli/commands";
import type { SecretBox } from "@/lib/crypto/secret-box";
import type { Db } from "@/lib/db/client";
import { KassaError } from "@/lib/errors";

export const CLI_BRIDGE_PATH = "/__kassa/cli";

const LOOPBACK = new Set(["127.0.0.1", "::1", "::ffff:127.0.0.1"]);

function tokensMatch(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Runs an ops CLI command for a CLI process on this machine while this server holds the
 * embedded database. Only loopback callers presenting the token from the lock file (readable by
 * the data directory's owner only) are served; everyone else gets the API's plain 404.
 */
export async function handleCliBridge(
  req: IncomingMessage,
  res: ServerResponse,
  body: Buffer,
  env: { db: Db; box: SecretBox; isSandbox: boolean; token: string },
): Promise<void> {
  const send = (status: number, payload: unknown) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(payload));
  };
  const token = req.headers["x-kassa-cli-token"];
  const isAllowed =
    req.method === "POST" &&
    LOOPBACK.has(req.socket.remoteAddress ?? "") &&
    typeof token === "string" &&
    tokensMatch(token, env.token);
  if (!isAllowed) return send(404, { error: "Not found", code: "not_found" });
  try {
    const result = await runCliCommand(JSON.parse(body.toString("utf8")), env);
    send(200, { ok: true, result });
  } catch (error) {
    if (error instanceof KassaError) {
      return send(200, {
        ok: false,
        error: { code: error.code, message: error.message, fields: error.fields },
      });
    }
    console.error("[cli-bridge] command failed:", error);
    send(500, {
      ok: false,
      error: { code: "internal_error", message: "The command failed; see the server log." },
    });
  }
}
