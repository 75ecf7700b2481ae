import { assertSandbox } from "@/lib/api/runtime-values";
import { withMerchantSignature } from "@/lib/api/with-merchant-signature";
import { mineSandboxBlocks } from "@/lib/chain/sandbox/mine-blocks";
import { sandboxBlocksEndpoint } from "@/lib/schemas/sandbox";

export const POST = withMerchantSignature(sandboxBlocksEndpoint, async ({ db, body }) => {
  assertSandbox();
  return mineSandboxBlocks(db, body);
});
