export type ContractArtifact = { contractName: string; compiler: string; abi: unknown[]; bytecode: string };
export function compileContract(file: string): ContractArtifact;
export function artifactPath(file: string): string;
export function contractSources(): string[];
