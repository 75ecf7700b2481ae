// Compiles contracts/*.sol with solc-js into a JSON artifact next to each source ({ abi, bytecode }),
// checked in so tests and the devnet need no compiler run. A test compiles again and compares.
//   node scripts/build-contracts.mjs          writes the artifacts
//   node scripts/build-contracts.mjs --check  exits 1 when an artifact is out of date
import fs from "node:fs";
import path from "node:path";
import solc from "solc";

const CONTRACTS_DIR = path.resolve(import.meta.dirname, "..", "contracts");

/** Compiles one source file; returns the artifact of the contract named like the file. */
export function compileContract(file) {
  const name = path.basename(file, ".sol");
  const input = {
    language: "Solidity",
    sources: { [path.basename(file)]: { content: fs.readFileSync(file, "utf8") } },
    settings: {
      optimizer: { enabled: true, runs: 200 },
      // No metadata hash: the bytecode then depends on the source alone, not on file paths.
      metadata: { bytecodeHash: "none", appendCBOR: false },
      outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input)));
  const errors = (output.errors ?? []).filter((e) => e.severity === "error");
  if (errors.length) throw new Error(errors.map((e) => e.formattedMessage).join("\n"));
  const contract = output.contracts[path.basename(file)][name];
  return {
    contractName: name,
    compiler: solc.version(),
    abi: contract.abi,
    bytecode: `0x${contract.evm.bytecode.object}`,
  };
}

export function artifactPath(file) {
  return file.replace(/\.sol$/, ".json");
}

export function contractSources() {
  return fs
    .readdirSync(CONTRACTS_DIR)
    .filter((f) => f.endsWith(".sol"))
    .map((f) => path.join(CONTRACTS_DIR, f));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const isCheck = process.argv.includes("--check");
  let isStale = false;
  for (const file of contractSources()) {
    const artifact = compileContract(file);
    const target = artifactPath(file);
    if (isCheck) {
      // Compared as data, not text: the formatter may lay the checked-in file out differently.
      const current = fs.existsSync(target) ? fs.readFileSync(target, "utf8") : "null";
      if (JSON.stringify(JSON.parse(current)) !== JSON.stringify(artifact)) {
        console.error(
          `${path.relative(process.cwd(), target)} is out of date: run node scripts/build-contracts.mjs`,
        );
        isStale = true;
      }
    } else {
      fs.writeFileSync(target, `${JSON.stringify(artifact, null, 2)}\n`);
      console.log(`wrote ${path.relative(process.cwd(), target)}`);
    }
  }
  if (isStale) process.exit(1);
}
