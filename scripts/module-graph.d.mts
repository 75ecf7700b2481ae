export const SERVER_ONLY_LINE: string;
export function valueImports(root: string, file: string): string[];
export function reachableFrom(root: string, entries: string[]): Map<string, string | null>;
export function isClientEntry(file: string): boolean;
export function hasServerOnlyMarker(file: string): boolean;
export function serverOnlyPlan(root: string): {
  clientReachable: Map<string, string | null>;
  serverModules: string[];
  missingMarker: string[];
  serverCodeInClient: string[];
};
export function importChain(root: string, clientReachable: Map<string, string | null>, file: string): string;
