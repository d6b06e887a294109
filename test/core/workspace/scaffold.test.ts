import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { startTestHost, removeHome, withTestHost } from "../../helpers/start-test-host.ts";
import { localDate, scaffoldWorkspace } from "../../../core/internal/workspace/scaffold.ts";

/** The scaffolded organisation file, as the checks below read it (parsed YAML, so asserted field by field). */
interface ScaffoldedOrg {
  owner: string;
  tiers: Record<string, string>;
  squads: Record<string, { lead: string; members: string[] }>;
  agents: Record<string, { id: string; squad: string; tier: number; role?: string; model?: string; reports_to: string | null }>;
  escalation_chain: unknown;
}

const t = suite("workspace scaffolding");

function listFiles(dir: string, prefix = ""): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? listFiles(join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`],
  );
}

t("a new workspace is scaffolded on first start: organisation, personas, pack, memory, knowledge base", async () => {
  await withTestHost(async (h) => {
    const w = h.workspace;
    const today = localDate();
    for (const rel of ["company/org_structure.yaml", "MEMORY.md", `memory/${today}.md`, "packs/dev_squad.json", "company/knowledge_base/README.md", "AGENTS.md"]) {
      assert.ok(existsSync(join(w, rel)), `${rel} exists`);
    }
    for (const tier of ["executive", "management", "execution"]) {
      assert.ok(readdirSync(join(w, "personas", tier)).some((f) => f.endsWith(".md")), `a ${tier} persona`);
    }
    assert.ok(existsSync(join(w, "projects")), "projects/ exists for the boards");
    assert.not.ok(existsSync(join(w, "memory", "daily-note.md")), "the template's placeholder name is not copied");
    assert.ok(readFileSync(join(w, `memory/${today}.md`), "utf8").startsWith(`# ${today}`));
    assert.ok(listFiles(join(w, "company", "knowledge_base")).filter((f) => f.endsWith(".md")).length >= 3);

    const { org } = parseYaml(readFileSync(join(w, "company/org_structure.yaml"), "utf8")) as { org: ScaffoldedOrg };
    assert.is(org.owner, "owner");
    assert.equal(Object.keys(org.squads).sort(), ["blockchain", "dev_squad", "personal", "social"]);
    assert.equal(org.tiers, { "1": "executive", "2": "management", "3": "execution" });
    for (const [id, squad] of Object.entries(org.squads)) {
      const lead = org.agents[squad.lead];
      assert.ok(lead, `${id} has a lead agent`);
      assert.is(lead.squad, id);
      assert.is(lead.tier, 2);
      assert.ok(squad.members.includes(squad.lead));
      for (const member of squad.members) assert.is(org.agents[member]?.squad, id);
    }
    for (const [id, agent] of Object.entries(org.agents)) {
      assert.is(agent.id, id);
      assert.ok(Number.isInteger(agent.tier) && agent.role && agent.model, `${id} has tier, role, model`);
      if (agent.reports_to !== null) assert.ok(org.agents[agent.reports_to], `${id} reports to a known agent`);
      if (agent.reports_to !== null) assert.is(org.agents[agent.reports_to]?.tier, agent.tier - 1, `${id} reports one tier up`);
    }
    assert.equal(org.escalation_chain, [
      { from: "execution", to: "management", triggers: ["blocker", "conflict", "unclear_requirements"] },
      { from: "management", to: "executive", triggers: ["architecture_decision", "resource_conflict", "deadline_risk"] },
      { from: "executive", to: "owner", triggers: ["budget", "strategy", "external_communication", "deploy_approval"] },
    ]);

    const pack = JSON.parse(readFileSync(join(w, "packs/dev_squad.json"), "utf8")) as { version: string; squad: { id: string }; agents: Array<{ id?: string; role?: string; model?: string; tier?: unknown }> };
    assert.match(pack.version, /^\d+\.\d+\.\d+$/);
    assert.is(pack.squad.id, "dev_squad");
    assert.ok(pack.agents.length >= 1 && pack.agents.every((a) => a.id && a.role && a.model && Number.isInteger(a.tier)));
  });
});

t("an existing workspace is never touched: no file overwritten, none added", async () => {
  const home = mkdtempSync(join(tmpdir(), "muster-home-"));
  const workspace = join(home, "existing");
  mkdirSync(join(workspace, "memory"), { recursive: true });
  writeFileSync(join(workspace, "MEMORY.md"), "my own memory\n");
  writeFileSync(join(workspace, "memory", "2020-01-01.md"), "old note\n");
  const before = listFiles(workspace).sort();
  const h = await startTestHost({ home, workspace });
  try {
    assert.equal(listFiles(workspace).sort(), before);
    assert.is(readFileSync(join(workspace, "MEMORY.md"), "utf8"), "my own memory\n");
  } finally {
    await h.stop();
    removeHome(home);
  }
});

t("a restart keeps the user's edits and deletions (scaffolding runs only for a new directory)", async () => {
  await withTestHost(async (h) => {
    writeFileSync(join(h.workspace, "MEMORY.md"), "edited\n");
    unlinkSync(join(h.workspace, "AGENTS.md"));
    h = await h.restart();
    assert.is(readFileSync(join(h.workspace, "MEMORY.md"), "utf8"), "edited\n");
    assert.not.ok(existsSync(join(h.workspace, "AGENTS.md")), "a deleted template file is not brought back");
  });
});

t("scaffoldWorkspace: empty directory filled, second call a no-op; scaffolding can be turned off", async () => {
  const dir = mkdtempSync(join(tmpdir(), "muster-ws-"));
  try {
    const first = scaffoldWorkspace(dir, { now: new Date(2031, 0, 2, 23, 30) });
    assert.ok(first.scaffolded);
    assert.ok(first.created.includes("memory/2031-01-02.md"), "local date names the daily note");
    assert.ok(first.created.includes("company/org_structure.yaml"));
    const again = scaffoldWorkspace(dir);
    assert.equal(again, { scaffolded: false, created: [] });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const home = mkdtempSync(join(tmpdir(), "muster-home-"));
  const h = await startTestHost({ home, config: { scaffoldWorkspace: false } });
  try {
    assert.equal(readdirSync(h.workspace), []);
  } finally {
    await h.stop();
    removeHome(home);
  }
});

t.run();
