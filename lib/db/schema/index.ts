export * from "./columns";
export * from "./core";
export * from "./customers";
export * from "./ledger";
export * from "./transactions";
