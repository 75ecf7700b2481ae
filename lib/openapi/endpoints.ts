import type { Endpoint } from "@/lib/api/endpoint";
import { accountsListEndpoint, currenciesListEndpoint, pingEndpoint } from "@/lib/schemas/platform";

/** Every endpoint of /api/v2, in the order the reference lists them. Each new endpoint adds itself here. */
export const ENDPOINTS: Endpoint[] = [pingEndpoint, currenciesListEndpoint, accountsListEndpoint];
