// `muster doctor` runs the checks plugins contribute (hostPoints.doctorChecks) after the
// host's: the ones that are not optional first, the optional ones last, each skipped when a
// check it needs did not pass, with a context read from the configuration (issue 23).
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { contribute, definePlugin, hostPoints, type DoctorCheck, type DoctorContext } from "@muster/plugin";
import { doctorCommand } from "../../core/internal/doctor-command.ts";
import { removeHome } from "../helpers/start-test-host.ts";

const t = suite("muster doctor: contributed checks");

interface Report {
  ok: boolean;
  checks: { id: string; status: string; detail: string }[];
}

async function runDoctor(plugins: ReturnType<typeof definePlugin>[], env: Record<string, string>): Promise<{ code: number; report: Report }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let text = "";
  stdout.on("data", (chunk) => (text += String(chunk)));
  const code = await doctorCommand({ env, plugins }).run(["--json"], { stdout, stderr });
  return { code, report: JSON.parse(text) as Report };
}

t("contributed checks follow the host's, optional ones last; needs skip them; a throw is a failure", async () => {
  const home = mkdtempSync(join(tmpdir(), "muster-doctor-contrib-"));
  try {
    const seen: DoctorContext[] = [];
    const check = (id: string, extra: Partial<DoctorCheck>): DoctorCheck => ({ id, name: `check ${id}`, run: (context) => (seen.push(context), { status: "ok", detail: id }), ...extra });
    const plugin = definePlugin({
      id: "checker",
      version: "1.0.0",
      host: "^1.0.0",
      contributions: [
        contribute(hostPoints.doctorChecks, check("late", { optional: true, needs: ["database"] })),
        contribute(hostPoints.doctorChecks, check("early", { needs: ["workspace"] })),
        contribute(hostPoints.doctorChecks, check("gated", { needs: ["gateway.agents"] })),
        contribute(hostPoints.doctorChecks, check("broken", { run: () => { throw new Error("the check itself failed"); } })),
      ],
    });
    const { code, report } = await runDoctor([plugin], { MUSTER_HOME: home, GATEWAY_URL: "off", VAULT_KEY: "a-vault-key-for-the-test" });
    // No crew check: it is the agents plugin's contribution, and only this plugin is loaded.
    assert.equal(report.checks.map((c) => c.id).slice(-5), ["gateway.agents", "early", "gated", "broken", "late"]);
    const byId = new Map(report.checks.map((c) => [c.id, c]));
    assert.equal([byId.get("early")!.status, byId.get("late")!.status], ["ok", "ok"]);
    assert.equal([byId.get("gated")!.status, byId.get("gated")!.detail], ["skipped", "not checked (agents.list is disabled)"]);
    assert.equal([byId.get("broken")!.status, byId.get("broken")!.detail], ["fail", "the check itself failed"]);
    assert.is(code, 1);
    assert.is(seen[0]!.home, home);
    assert.is(seen[0]!.databasePath, join(home, "muster.db"));
    assert.is(seen[0]!.runningServer, null);
    assert.is(seen[0]!.credential("vaultKey"), "a-vault-key-for-the-test");
  } finally {
    removeHome(home);
  }
});

t("a configuration that does not load skips every contributed check", async () => {
  const home = mkdtempSync(join(tmpdir(), "muster-doctor-contrib-"));
  try {
    const plugin = definePlugin({ id: "checker", version: "1.0.0", host: "^1.0.0", contributions: [contribute(hostPoints.doctorChecks, { id: "free", name: "needs nothing", run: () => ({ status: "ok", detail: "ran" }) })] });
    const { report } = await runDoctor([plugin], { MUSTER_HOME: home, PORT: "not-a-port" });
    const free = report.checks.find((c) => c.id === "free")!;
    assert.equal([free.status, free.detail], ["skipped", "not checked (needs config)"]);
  } finally {
    removeHome(home);
  }
});

t.run();
