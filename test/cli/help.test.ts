// `--help`/`-h` on every command and sub-command prints its usage on stdout and exits 0;
// an unknown command, sub-command or flag prints usage on stderr and exits 2.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { removeHome } from "../helpers/start-test-host.ts";
import { runMuster, type MusterRun } from "./run-muster.ts";

const t = suite("muster --help and usage errors");

/** Runs each argument list (a few at a time: each is a Node start-up) against an empty home. */
async function runAll(lists: string[][]): Promise<[string[], MusterRun][]> {
  const home = mkdtempSync(join(tmpdir(), "muster-help-"));
  try {
    const results: [string[], MusterRun][] = [];
    for (let i = 0; i < lists.length; i += 3) {
      const batch = lists.slice(i, i + 3);
      results.push(...(await Promise.all(batch.map(async (args) => [args, await runMuster(args, { MUSTER_HOME: home, PORT: "1" })] as [string[], MusterRun]))));
    }
    return results;
  } finally {
    removeHome(home);
  }
}

const COMMANDS = [
  ["start"], ["status"], ["login"], ["plugins"], ["plugins", "list"], ["plugins", "add"], ["plugins", "remove"],
  ["approvals"], ["approvals", "list"], ["approvals", "show"], ["approvals", "approve"], ["approvals", "reject"],
  ["backup"], ["restore"], ["mcp"], ["vault"], ["vault", "rotate"],
];

t("every command and sub-command answers --help and -h with its usage, exit 0, doing nothing else", async () => {
  const lists = COMMANDS.flatMap((c, i) => [[...c, i % 2 ? "-h" : "--help"]]);
  for (const [args, run] of await runAll(lists)) {
    assert.is(run.status, 0, `${args.join(" ")}: ${run.stderr}`);
    assert.match(run.stdout, new RegExp(`^Usage: muster ${args[0]}`), args.join(" "));
    assert.is(run.stderr, "", args.join(" "));
  }
  const top = (await runAll([["--help"]]))[0]![1];
  assert.is(top.status, 0);
  assert.match(top.stdout, /Exit codes: 0 success; 1 failure/);
  for (const [command] of COMMANDS) assert.ok(top.stdout.includes(`  ${command}`), `muster --help lists ${command}`);
});

t("unknown commands, sub-commands, flags and extra arguments print usage on stderr and exit 2", async () => {
  const lists = [[], ["frobnicate"], ["status", "--verbose"], ["login", "now"], ["start", "--port", "1"], ["plugins", "frob"], ["approvals", "list", "--al"], ["backup", "a", "b"], ["restore"], ["mcp", "--read"]];
  for (const [args, run] of await runAll(lists)) {
    assert.is(run.status, 2, `${args.join(" ")}: ${run.stderr}`);
    assert.match(run.stderr, /Usage: muster/, args.join(" "));
    assert.is(run.stdout, "", args.join(" "));
  }
});

t.run();
