import "server-only";

import { isOffered, type Offering } from "./offering";
import { CURRENCIES, type Currency } from "./registry";

/**
 * The registry as /currencies/list answers it. `visible` absent or true: the currencies offered
 * here (DESIGN.md section 5). `visible: false`: the public API's complement, the currencies of the
 * registry that are not offered: in production those whose network has no real adapter (or a token
 * without a contract); in sandbox mode, where the sandbox chain carries every network, only a token
 * the real EVM adapter has no contract for, so usually none.
 */
export function listCurrencies(input: { visible?: boolean; offering?: Offering }): Currency[] {
  const isShown = (currency: Currency) => isOffered(currency.code, input.offering) && currency.isVisible;
  return CURRENCIES.filter((currency) => (input.visible === false ? !isShown(currency) : isShown(currency)));
}
