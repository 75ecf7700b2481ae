/**
 * Where the server listens: PORT (default 3000) and HOST (default 0.0.0.0), the same variables and
 * defaults lib/config.ts validates for the engine. The server reads them itself because it listens
 * before (in development) or regardless of what the engine parses; a PORT that is not a port is
 * refused here with the same kind of message.
 */
export function listenAddress(env: NodeJS.ProcessEnv = process.env): { port: number; host: string } {
  const port = Number(env.PORT || 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    console.error(
      `Kassa could not start: Invalid environment:\n  PORT: must be a port number, not "${env.PORT}"`,
    );
    process.exit(1);
  }
  return { port, host: env.HOST || "0.0.0.0" };
}
