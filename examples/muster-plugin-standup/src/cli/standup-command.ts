// `muster standup [--day <date>] [--json]`: the crew's notes of a day, from the running
// server of this MUSTER_HOME (a command never opens the database beside it).
import { parseArgs } from "node:util";
import type { CommandIo } from "@muster/plugin";
import type { StandupNoteRow } from "../tokens.ts";

export const USAGE = "standup [--day <date>] [--json]";

export async function runStandup(args: string[], io: CommandIo): Promise<number> {
  let values: { day?: string | undefined; json?: boolean | undefined };
  try {
    ({ values } = parseArgs({ args, options: { day: { type: "string" }, json: { type: "boolean" } }, strict: true, allowPositionals: false }));
  } catch (error) {
    io.stderr.write(`muster standup: ${(error as Error).message}\nUsage: muster ${USAGE}\n`);
    return 2;
  }
  if (!io.runningServer) {
    io.stderr.write(`muster standup: no server is running on ${io.home}; start it with \`muster start\`\n`);
    return 1;
  }
  const url = new URL("/api/standup", io.runningServer);
  if (values.day) url.searchParams.set("day", values.day);
  const res = await fetch(url, { headers: io.serverHeaders, signal: AbortSignal.timeout(30_000) });
  const body = (await res.json()) as { day: string; notes: StandupNoteRow[]; error?: { code: string; message: string } };
  if (!res.ok) {
    io.stderr.write(`muster standup: ${body.error?.code}: ${body.error?.message}\n`);
    return 1;
  }
  if (values.json) {
    io.stdout.write(`${JSON.stringify(body)}\n`);
    return 0;
  }
  io.stdout.write(`Stand-up ${body.day}: ${body.notes.length} note${body.notes.length === 1 ? "" : "s"}\n`);
  for (const note of body.notes) {
    io.stdout.write(`\n${note.agent}\n  yesterday: ${note.yesterday}\n  today:     ${note.today}\n${note.blockers ? `  BLOCKED:   ${note.blockers}\n` : ""}`);
  }
  return 0;
}
