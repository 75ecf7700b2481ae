import { createServer, type IncomingMessage } from "node:http";
import { sql } from "drizzle-orm";
import { isValidSignature } from "@/lib/api/signature";
import { findActiveKey } from "@/lib/api-keys/find-active-key";
import { listBalances } from "@/lib/ledger/list-balances";
import { formatAmount } from "@/lib/money";
import { getConfig } from "@/lib/runtime";
import { bootDatabase } from "@/lib/server/boot";

/**
 * The benchmark's baseline: a bare node:http server doing what Kassa's routes do for the measured
 * endpoints (the same signature check and the same engine query on the same database), with no
 * framework around it. The gap between the two is what the framework's request pipeline costs.
 */
const config = getConfig();
const { handle, box, lock } = await bootDatabase(config, "server");
const { db } = handle;

const readBody = (req: IncomingMessage) =>
  new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });

const server = createServer(async (req, res) => {
  try {
    if (req.url === "/api/v2/ping") {
      await db.execute(sql`select 1`);
      res.writeHead(200, { "content-type": "text/plain" }).end("OK");
      return;
    }
    if (req.url === "/api/v2/accounts/list") {
      const body = await readBody(req);
      const key = await findActiveKey(db, box, String(req.headers["x-processing-key"]));
      if (!key || !isValidSignature(body, key.secret, String(req.headers["x-processing-signature"]))) {
        res.writeHead(403).end();
        return;
      }
      const balances = await listBalances(db, key.merchantId);
      const data = balances.map((b) => ({
        currency: b.currency,
        type: b.type,
        balance: formatAmount(b.balance),
      }));
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ data }));
      return;
    }
    res.writeHead(404).end();
  } catch (error) {
    console.error(error);
    res.writeHead(500).end();
  }
});

server.listen(config.port, "127.0.0.1", () => console.log(`baseline listening on ${config.port}`));
const stop = () =>
  server.close(async () => {
    await handle.close();
    lock?.release();
    process.exit(0);
  });
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
