import { withMerchantSignature } from "@/lib/api/with-merchant-signature";
import { mineSandboxBlocks } from "@/lib/chain/sandbox/mine-blocks";
import { sandboxBlocksEndpoint } from "@/lib/schemas/sandbox";

export const POST = withMerchantSignature(sandboxBlocksEndpoint, async ({ db, body }) => {
  return mineSandboxBlocks(db, body);
});
