import "server-only";

import { type Config, loadConfig } from "@/lib/config";
import { loadMasterKey } from "@/lib/crypto/master-key";
import { SecretBox } from "@/lib/crypto/secret-box";

/**
 * Process-wide values derived from the environment, computed once per module graph. The custom
 * server computes them first (and generates the embedded master key), so by the time a route
 * handler asks, the key file exists.
 */
let config: Config | undefined;
let secretBox: SecretBox | undefined;

export function getConfig(): Config {
  config ??= loadConfig();
  return config;
}

export function getSecretBox(): SecretBox {
  secretBox ??= new SecretBox(loadMasterKey(getConfig()));
  return secretBox;
}
