import { bigserial, boolean, index, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";

/** Sign-in attempts, for brute-force protection that holds across instances (counted in the database). */
export const signInAttempts = pgTable(
  "sign_in_attempts",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    email: text("email").notNull(),
    ip: text("ip").notNull(),
    isSuccess: boolean("is_success").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("sign_in_attempts_email_idx").on(t.email, t.createdAt),
    index("sign_in_attempts_ip_idx").on(t.ip, t.createdAt),
  ],
);
