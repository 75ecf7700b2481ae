import { createHash, timingSafeEqual } from "node:crypto";
import type { EngineMessage } from "@/lib/host/engine-protocol";
import { runEngineAction } from "@/lib/host/run-engine-action";
import { ENGINE_TOKEN_ENV, ENGINE_TOKEN_HEADER } from "@/server/engine-contract";

/**
 * The engine's door for the custom server (lib/host/engine-protocol.ts): start, stop, the port it
 * listens on, and the ops CLI's commands. It is a route so that the engine is the copy of lib/ that
 * Next.js compiled with every other route handler. Only a caller with the token the server put in
 * this process's environment gets past the 404, and the server never forwards a network request here.
 */
function isServer(request: Request): boolean {
  const expected = process.env[ENGINE_TOKEN_ENV];
  const given = request.headers.get(ENGINE_TOKEN_HEADER);
  if (!expected || given === null) return false;
  // Digests have one length whatever was sent (a header's length in characters and in bytes differ
  // for non-ASCII text, which would make timingSafeEqual throw).
  const digest = (text: string) => createHash("sha256").update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

export async function POST(request: Request): Promise<Response> {
  if (!isServer(request)) return Response.json({ error: "Not found", code: "not_found" }, { status: 404 });
  const answer = await runEngineAction((await request.json()) as EngineMessage);
  return Response.json(answer.body, { status: answer.status });
}
