import type { EngineMessage } from "@/lib/host/engine-protocol";
import type { RouteHandler } from "./api-routes";
import { ENGINE_PATH, ENGINE_TOKEN_HEADER } from "./engine-contract";
import { loadCompiledRoute } from "./load-compiled-route";

export type EngineReply = { status: number; body: unknown };
export type EngineClient = (message: EngineMessage) => Promise<EngineReply>;

const toRequest = (url: string, token: string, message: EngineMessage) =>
  new Request(url, {
    method: "POST",
    headers: { "content-type": "application/json", [ENGINE_TOKEN_HEADER]: token },
    body: JSON.stringify(message),
  });

/**
 * Production: the engine route's compiled handler, called in this process (no socket), so the
 * server can start the engine before it listens and stop it after the last request has drained.
 */
export async function compiledEngine(distDir: string, token: string): Promise<EngineClient> {
  const userland = await loadCompiledRoute(distDir, ENGINE_PATH);
  const post = userland.POST as RouteHandler;
  return async (message) => {
    const response = await post(toRequest(`http://localhost${ENGINE_PATH}`, token, message), {
      params: Promise.resolve({}),
    });
    return { status: response.status, body: await response.json() };
  };
}

/**
 * Development: Next compiles routes on demand, so the engine route is reached over loopback HTTP,
 * through Next's handler, once the server listens.
 */
export function loopbackEngine(baseUrl: string, token: string): EngineClient {
  return async (message) => {
    const response = await fetch(toRequest(`${baseUrl}${ENGINE_PATH}`, token, message));
    return { status: response.status, body: await response.json() };
  };
}
