// Suites that are not uvu files: each is a command plus a parser for its counts.
// Add a suite here (with a stable `name` usable as an `npm test -- <name>` filter).

export interface SuiteCounts { passed: number; failed: number; skipped: number }

export interface ExtraSuite {
  name: string;
  command: string;
  args: string[];
  parse: (output: string, exitCode: number) => SuiteCounts;
}

const single = (_output: string, exitCode: number): SuiteCounts =>
  exitCode === 0 ? { passed: 1, failed: 0, skipped: 0 } : { passed: 0, failed: 1, skipped: 0 };

export function extraSuites(node: string): ExtraSuite[] {
  return [
    { name: "typecheck (tsc --noEmit)", command: node, args: ["node_modules/typescript/bin/tsc", "--noEmit", "-p", "tsconfig.json"], parse: single },
    { name: "typecheck the console (tsc --noEmit, DOM)", command: node, args: ["node_modules/typescript/bin/tsc", "--noEmit", "-p", "tsconfig.console.json"], parse: single },
    {
      // Solidity fuzz and invariant tests (contracts/test/*.t.sol); counts from "N passing" / "N failing".
      name: "contracts: solidity fuzz and invariant tests (hardhat test solidity)",
      command: node,
      args: ["--import", "tsx", "test/contracts/support/solidity-suite.ts"],
      parse: (output: string, exitCode: number): SuiteCounts => {
        const text = output.replace(/\x1b\[[0-9;]*m/g, "");
        const passing = /(\d+) passing/.exec(text);
        const failing = /(\d+) failing/.exec(text);
        const counts = { passed: passing ? Number(passing[1]) : 0, failed: failing ? Number(failing[1]) : 0, skipped: 0 };
        if (exitCode !== 0 && counts.failed === 0) counts.failed = 1; // failed before or after the tests
        return counts;
      },
    },
  ];
}
