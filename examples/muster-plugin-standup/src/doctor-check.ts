import { contribute, hostPoints, type DoctorContext, type DoctorFinding } from "@muster/plugin";

/**
 * `muster doctor`: is anyone blocked? Asks the running server (a check never opens the
 * database beside it); without one there is nothing to read, which is fine.
 */
export async function checkBlockers(context: DoctorContext): Promise<DoctorFinding> {
  if (!context.runningServer) return { status: "ok", detail: "no server running; today's notes are checked while one is" };
  const res = await fetch(`${context.runningServer}/api/standup`, { headers: context.serverHeaders, signal: AbortSignal.timeout(5_000) });
  if (!res.ok) return { status: "fail", detail: `GET /api/standup answered ${res.status}`, fix: "check that muster-plugin-standup is installed and enabled (muster plugins)" };
  const { notes } = (await res.json()) as { notes: { agent: string; blockers: string }[] };
  const blocked = notes.filter((note) => note.blockers !== "").map((note) => note.agent);
  const detail = `${notes.length} stand-up note${notes.length === 1 ? "" : "s"} today`;
  if (blocked.length === 0) return { status: "ok", detail };
  return { status: "warn", detail: `${detail}; blocked: ${blocked.join(", ")}`, fix: "read their blockers: muster standup" };
}

export const blockersCheck = contribute(hostPoints.doctorChecks, {
  id: "standup.blockers",
  name: "stand-up blockers",
  needs: ["database"],
  optional: true,
  run: checkBlockers,
});
