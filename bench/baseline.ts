import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { sql } from "drizzle-orm";
import { parseJsonObject, validate } from "@/lib/api/read-body";
import { isValidSignature } from "@/lib/api/signature";
import { findActiveKey } from "@/lib/api-keys/find-active-key";
import { loadAccountKeys } from "@/lib/chain/load-account-keys";
import { bootDatabase } from "@/lib/host/boot";
import { createInvoice } from "@/lib/invoices/create-invoice";
import { toInvoiceResponse } from "@/lib/invoices/to-invoice-response";
import { listBalances } from "@/lib/ledger/list-balances";
import { formatAmount } from "@/lib/money";
import { getConfig } from "@/lib/runtime";
import { createInvoiceEndpoint } from "@/lib/schemas/invoices";
import { transactionInfoEndpoint } from "@/lib/schemas/transactions";
import { withdrawalEndpoint } from "@/lib/schemas/withdrawals";
import { lookUpTransaction } from "@/lib/transactions/describe-transaction";
import { createWithdrawal } from "@/lib/withdrawals/create-withdrawal";
import { withdrawalInput } from "@/lib/withdrawals/from-request";

/**
 * The benchmark's baseline: a bare node:http server doing, for each measured endpoint, what
 * Kassa's route does (read the body, check the key and the HMAC, parse and validate the JSON, call
 * the same engine functions with the same input on the same database, answer JSON) with nothing
 * around it: no framework, no request context, no rate limiter, no error mapping. The gap between the
 * two is what Kassa's request pipeline costs. The same input: what the route hands the engine (the
 * key's id, the audit trail's actor and address, the approval window), so both write the same rows.
 */
const config = getConfig();
const { handle, box, lock } = await bootDatabase(config, "server");
const { db } = handle;
const invoiceSettings = {
  timerSeconds: config.invoiceTimerSeconds,
  pricing: config.pricing,
  callbackMode: config.mode,
};

const readBody = (req: IncomingMessage) =>
  new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });

type Signed = {
  merchantId: number;
  keyId: number;
  key: string;
  address: string;
  object: ReturnType<typeof parseJsonObject>;
  host: string;
};

const routes: Record<string, (signed: Signed) => Promise<[number, unknown]>> = {
  "/api/v2/accounts/list": async ({ merchantId }) => {
    const balances = await listBalances(db, merchantId);
    const data = balances.map((b) => ({
      currency: b.currency,
      type: b.type,
      balance: formatAmount(b.balance),
    }));
    return [200, { data }];
  },
  "/api/v2/invoices/create": async ({ merchantId, keyId, object, host }) => {
    const request = validate(createInvoiceEndpoint, object);
    const record = await createInvoice(db, {
      merchantId,
      apiKeyId: keyId,
      request,
      settings: invoiceSettings,
      keys: await loadAccountKeys(db, box),
    });
    return [201, { data: toInvoiceResponse(record, `http://${host}`) }];
  },
  "/api/v2/withdrawal/crypto": async ({ merchantId, keyId, key, address, object }) => {
    const body = validate(withdrawalEndpoint, object);
    const input = {
      ...withdrawalInput(merchantId, body, config.pricing),
      apiKeyId: keyId,
      approvalSeconds: config.withdrawalApprovalSeconds,
      audit: { actor: { kind: "api_key" as const, key }, address },
    };
    const { id, price, status } = await createWithdrawal(db, input);
    const data = {
      id,
      foreign_id: body.foreign_id,
      end_user_reference: body.end_user_reference,
      type: input.kind,
      status,
      amount: formatAmount(price.principal),
      sender_amount: formatAmount(price.totalDebit),
      sender_currency: price.source,
      receiver_currency: price.target,
      receiver_amount: formatAmount(price.sent),
    };
    return [201, { data }];
  },
  "/api/v2/transactions/info": async ({ merchantId, object }) => {
    const body = validate(transactionInfoEndpoint, object);
    const described = await lookUpTransaction(db, merchantId, body);
    if (!described) return [404, { error: "Transaction not found", code: "not_found" }];
    return [200, described];
  },
};

const send = (res: ServerResponse, status: number, body: unknown) =>
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));

async function serve(req: IncomingMessage, res: ServerResponse) {
  if (req.url === "/api/v2/ping") {
    await db.execute(sql`select 1`);
    res.writeHead(200, { "content-type": "text/plain" }).end("OK");
    return;
  }
  const route = routes[req.url ?? ""];
  if (!route) return send(res, 404, { error: "Not found" });
  const raw = await readBody(req);
  const keyHeader = String(req.headers["x-processing-key"]);
  const key = await findActiveKey(db, box, keyHeader);
  if (!key || !isValidSignature(raw, key.secret, String(req.headers["x-processing-signature"]))) {
    return send(res, 403, { error: "Bad signature" });
  }
  const [status, body] = await route({
    merchantId: key.merchantId,
    keyId: key.id,
    key: keyHeader,
    address: req.socket.remoteAddress ?? "unknown",
    object: parseJsonObject(raw),
    host: req.headers.host ?? "localhost",
  });
  send(res, status, body);
}

const server = createServer((req, res) => {
  serve(req, res).catch((error) => {
    console.error(error);
    send(res, 500, { error: String(error) });
  });
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
