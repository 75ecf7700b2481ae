import { SMTPServer } from "smtp-server";

export type Mail = { to: string; data: string };

/** A real SMTP server on a loopback port (any free one unless `port` is given), keeping every message it receives. */
export async function startSmtpServer(options: { port?: number } = {}) {
  const received: Mail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, session, callback) {
      let data = "";
      stream.on("data", (chunk: Buffer) => {
        data += chunk.toString("utf8");
      });
      stream.on("end", () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address).join(","), data });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.server.address() as { port: number };
  return {
    port,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
