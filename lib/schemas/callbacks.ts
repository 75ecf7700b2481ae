import "server-only";

import { z } from "zod";
import { defineEndpoint } from "@/lib/api/endpoint";

export const resendCallbackEndpoint = defineEndpoint({
  method: "POST",
  path: "/callbacks/resend",
  summary: "Resend a callback",
  description:
    "Sends a callback again with the same body: the latest callback of transaction `id`, or the callback " +
    "`callback_id`. The redelivery carries `X-Kassa-Redelivery-Of` with the original callback's id.",
  tag: "Callbacks",
  isSigned: true,
  request: z
    .object({ id: z.int().min(1).optional(), callback_id: z.int().min(1).optional() })
    .superRefine((value, ctx) => {
      if ((value.id === undefined) === (value.callback_id === undefined)) {
        ctx.addIssue({
          code: "custom",
          path: ["id"],
          message: "Send exactly one of id (a transaction) or callback_id.",
        });
      }
    }),
  response: z.object({ callback_id: z.int(), status: z.literal("queued") }),
  successStatus: 201,
});
