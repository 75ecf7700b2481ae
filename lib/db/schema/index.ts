export * from "./chain";
export * from "./columns";
export * from "./core";
export * from "./customers";
export * from "./invoices";
export * from "./jobs";
export * from "./ledger";
export * from "./transactions";
