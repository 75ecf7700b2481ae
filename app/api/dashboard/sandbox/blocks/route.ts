import { withSession } from "@/lib/api/with-session";
import { mineSandboxBlocks } from "@/lib/chain/sandbox/mine-blocks";
import { sandboxMineRequest } from "@/lib/schemas/dashboard";

export const POST = withSession(
  { permission: "sandbox.use", isSandboxOnly: true, request: sandboxMineRequest, successStatus: 201 },
  async ({ db, body }) => {
    return mineSandboxBlocks(db, body);
  },
);
