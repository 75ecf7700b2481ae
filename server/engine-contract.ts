/**
 * Where the server reaches the engine and the ops CLI reaches the server. The engine's route
 * (app/internal/engine/route.ts) answers only callers presenting the token the server put in its own
 * environment before Next.js loaded, and the server never lets a network request through to it.
 */
export const ENGINE_PATH = "/internal/engine";
export const ENGINE_TOKEN_HEADER = "x-kassa-engine-token";
export const ENGINE_TOKEN_ENV = "KASSA_ENGINE_TOKEN";

/** The ops CLI's door into a running server that holds the embedded database (loopback only). */
export const CLI_BRIDGE_PATH = "/__kassa/cli";
export const CLI_TOKEN_HEADER = "x-kassa-cli-token";
