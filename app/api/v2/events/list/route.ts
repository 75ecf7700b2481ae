import { withMerchantSignature } from "@/lib/api/with-merchant-signature";
import { listEvents } from "@/lib/events/list-events";
import { eventsListEndpoint } from "@/lib/schemas/events";

export const POST = withMerchantSignature(eventsListEndpoint, ({ db, merchantId, body }) =>
  listEvents(db, { merchantId, request: body }),
);
