import "server-only";

import { z } from "zod";
import { defineEndpoint } from "@/lib/api/endpoint";

export const DELIVERY_STATES = ["pending", "delivered", "failed"] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

export const EVENTS_PAGE_DEFAULT = 20;
export const EVENTS_PAGE_MAX = 100;

/** An opaque page cursor: what `next_cursor` carried. Today the id the next page starts below. */
const cursor = z
  .string()
  .regex(/^[1-9][0-9]{0,14}$/, "The cursor must be a next_cursor value from an earlier page.")
  .meta({ description: "The `next_cursor` of the previous page; absent for the first page." });

// Optional fields sent as null mean absent (DESIGN.md section 8).
export const eventsListRequest = z
  .object({
    limit: z
      .int()
      .min(1)
      .max(EVENTS_PAGE_MAX)
      .nullish()
      .meta({ description: `Events per page, 1 to ${EVENTS_PAGE_MAX}; ${EVENTS_PAGE_DEFAULT} when absent.` }),
    cursor: cursor.nullish(),
    transaction_id: z
      .int()
      .min(1)
      .nullish()
      .meta({ description: "Only the callbacks of this transaction (its `id`)." }),
    delivery_state: z
      .enum(DELIVERY_STATES)
      .nullish()
      .meta({ description: "Only callbacks in this delivery state." }),
    since: z.iso.datetime({ offset: true }).nullish().meta({
      description: "Only callbacks created at or after this ISO 8601 time, e.g. `2026-11-24T00:00:00Z`.",
    }),
  })
  .meta({ id: "EventsListRequest" });

export type EventsListRequest = z.output<typeof eventsListRequest>;

export const eventEntry = z
  .object({
    id: z.int().meta({ description: "The callback's id (what callbacks/resend takes as `callback_id`)." }),
    event: z.string().meta({ example: "invoice.confirmed" }),
    transaction_id: z.int(),
    created_at: z.string().meta({ description: "ISO 8601, UTC.", example: "2026-11-24T01:02:03.456Z" }),
    url: z.string().meta({
      description:
        "Where the callback is sent now: the invoice's own `callback_url`, else your callback URL as it is now.",
    }),
    body: z.string().meta({
      description:
        "The exact bytes sent (and signed) on every attempt, as a string: parse it as JSON, or check a signature over it.",
    }),
    redelivery_of: z
      .int()
      .nullable()
      .meta({ description: "For a resend (callbacks/resend), the callback whose body it repeats." }),
    delivery: z.object({
      state: z.enum(DELIVERY_STATES).meta({
        description:
          "`pending`: not yet answered with a 2xx and more attempts are scheduled; `delivered`: a 2xx came back; " +
          "`failed`: every scheduled attempt failed.",
      }),
      attempts: z.int(),
      last_http_status: z.int().nullable().meta({
        description: "The status of the latest attempt; null before any, or when it got no answer.",
      }),
      last_error: z.string().nullable().meta({ description: "Why the latest attempt failed, when it did." }),
      last_attempt_at: z.string().nullable(),
      next_attempt_at: z.string().nullable().meta({
        description:
          "When the next attempt is due; null unless pending, and null while it waits for an earlier callback of its transaction.",
      }),
      waiting_for: z.int().nullable().meta({
        description:
          "The id of an earlier callback of the same transaction this one waits for (callbacks go in order per transaction); it is sent as soon as that one is delivered or fails.",
      }),
      delivered_at: z.string().nullable(),
    }),
  })
  .meta({ id: "Event" });

export const eventsListEndpoint = defineEndpoint({
  method: "POST",
  path: "/events/list",
  summary: "List events (callbacks sent)",
  description:
    "Every callback Kassa produced for your merchant, newest first, with the exact body sent and its delivery state. " +
    "Filter by `transaction_id`, `delivery_state` and `since`; page with `limit` and the `next_cursor` of the " +
    "previous page (null on the last page). Another merchant's callbacks are never listed.",
  tag: "Callbacks",
  isSigned: true,
  request: eventsListRequest,
  response: z
    .object({
      events: z.array(eventEntry),
      next_cursor: z.string().nullable().meta({ description: "Send it as `cursor` for the next page." }),
    })
    .meta({ id: "EventsPage" }),
  successStatus: 200,
});
