// Another process on the same PostgreSQL database, for tests of what crosses processes: sends one
// sandbox payment (KASSA_CHILD_PAYMENT: { currency, address, amount } in 10^-8 units, as JSON) to the
// database named by KASSA_CHILD_DB (a TestDatabaseLocation as JSON), prints "paid" and exits.
import { sendSandboxPayment } from "@/lib/chain/sandbox/send-payment";
import { openDatabase } from "@/lib/db/client";
import type { TestDatabaseLocation } from "./database";

const location = JSON.parse(process.env.KASSA_CHILD_DB!) as TestDatabaseLocation;
if (location.kind !== "pg") throw new Error("a second process needs PostgreSQL");
const payment = JSON.parse(process.env.KASSA_CHILD_PAYMENT!) as {
  currency: string;
  address: string;
  amount: string;
};
const handle = await openDatabase({ kind: "pg", url: location.url, poolSize: 2 });
await sendSandboxPayment(handle.db, {
  currency: payment.currency,
  address: payment.address,
  amount: BigInt(payment.amount),
});
process.stdout.write("paid\n");
await handle.close();
