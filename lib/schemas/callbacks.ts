import "server-only";

import { z } from "zod";
import { defineEndpoint } from "@/lib/api/endpoint";

export const resendCallbackEndpoint = defineEndpoint({
  method: "POST",
  path: "/callbacks/resend",
  summary: "Resend a callback",
  description:
    "Sends a callback again, at once, to the callback URL configured now (or the invoice's own `callback_url`): " +
    "the latest callback of transaction `id`, or the callback `callback_id`. One still being retried is " +
    "attempted now instead of at its next retry, and `callback_id` is its own id. One already delivered or " +
    "failed is redelivered with the same body as a new callback, whose requests carry `X-Kassa-Redelivery-Of` " +
    "with the original callback's id.",
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
