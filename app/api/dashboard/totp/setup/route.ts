import QRCode from "qrcode";
import { withSession } from "@/lib/api/with-session";
import { newTotpSecret } from "@/lib/auth/totp";

/** A new secret to scan; nothing changes until /totp/enable confirms a code from it. */
export const POST = withSession({ permission: "account.manage" }, async ({ session }) => {
  const { secret, uri } = newTotpSecret(session.email);
  return { secret, uri, qr_svg: await QRCode.toString(uri, { type: "svg", margin: 2 }) };
});
