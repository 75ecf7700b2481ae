import "server-only";

import { chainIdOf, contractOf, tokenDecimalsOf } from "@/lib/currencies/offering";
import { getCurrency } from "@/lib/currencies/registry";
import { formatAmountShort, SCALE } from "@/lib/money";

/** An amount in a token's or coin's base units (wei for ETH), from minor units (10^-8). */
function toBaseUnits(amount: bigint, decimals: number): string {
  return decimals >= SCALE
    ? (amount * 10n ** BigInt(decimals - SCALE)).toString()
    : (amount / 10n ** BigInt(SCALE - decimals)).toString();
}

/**
 * A wallet's payment URI per network (UX.md): BIP21 for Bitcoin-likes (CashAddr's prefix is the scheme),
 * EIP-681 for Ether (wei) and ERC-20 (a transfer in base units), the bare address for Tron, XLS-2 `?dt=`
 * for an XRP tag. EIP-681 names the configured node's chain id (bare address until it answers; mainnet's
 * for a simulated network) and KASSA_EVM_TOKENS' contract and decimals when configured.
 */
export function paymentUri(input: {
  currency: string;
  address: string;
  tag: string;
  amount: bigint;
}): string {
  const currency = getCurrency(input.currency);
  const decimal = formatAmountShort(input.amount);
  switch (currency.addressFormat) {
    case "bitcoin":
      return `bitcoin:${input.address}?amount=${decimal}`;
    case "litecoin":
      return `litecoin:${input.address}?amount=${decimal}`;
    case "dogecoin":
      return `dogecoin:${input.address}?amount=${decimal}`;
    case "bitcoincash":
      return `${input.address}?amount=${decimal}`;
    case "ethereum": {
      const chainId = chainIdOf(currency.network ?? "ethereum");
      // The node's chain is not known yet: a link naming a guessed chain could send the money elsewhere.
      if (chainId === null) return input.address;
      const contract = contractOf(currency.code);
      if (contract) {
        return `ethereum:${contract}@${chainId}/transfer?address=${input.address}&uint256=${toBaseUnits(input.amount, tokenDecimalsOf(currency.code))}`;
      }
      return `ethereum:${input.address}@${chainId}?value=${toBaseUnits(input.amount, 18)}`;
    }
    case "ripple":
      return input.tag ? `${input.address}?dt=${input.tag}` : input.address;
    default:
      return input.address;
  }
}
