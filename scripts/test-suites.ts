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
  ];
}
