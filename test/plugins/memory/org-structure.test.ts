import { suite } from "uvu";
import * as assert from "uvu/assert";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startTestHost, removeHome, type TestHost } from "../../helpers/start-test-host.ts";
import type { ApiBody } from "@muster/plugin/testing";

const t = suite<{ h: TestHost }>("memory: organisation structure");
const ORG = "company/org_structure.yaml";

const writeOrg = (h: TestHost, content: string | Uint8Array) => {
  mkdirSync(join(h.workspace, "company"), { recursive: true });
  writeFileSync(join(h.workspace, ORG), content);
};

t.before(async (ctx) => {
  ctx.h = await startTestHost({ config: { scaffoldWorkspace: false } });
});
t.after(async (ctx) => {
  await ctx.h.stop();
  removeHome(ctx.h.home);
});

t("absent file: 404 ORG_FILE_NOT_FOUND", async ({ h }) => {
  rmSync(join(h.workspace, ORG), { force: true });
  const res = await h.json<ApiBody<"getOrgStructure">>("/api/org-structure");
  assert.is(res.status, 404);
  assert.is(res.body.error?.code, "ORG_FILE_NOT_FOUND");
});

t("reference format: agents with tier, role, model, squad, reportsTo; squads with leads; tiers; escalation", async ({ h }) => {
  writeOrg(h, `# comment
org:
  name: ClawHalla
  owner: User
  tiers: {'0': platform, '1': squad_lead, '2': execution}
  squads:
    dev_squad: {name: Dev, chief: claw, lead: freya, domain: code, members: [freya, sindri]}
    social: {name: Social, lead: bragi}
  agents:
    claw: {id: claw, tier: 0, role: chief_orchestrator, model: claude-opus-4-6, manages: [freya], reports_to: null, squad: null, skills: []}
    freya: {id: freya, tier: 1, role: dev_lead, model: claude-sonnet-4-6, reports_to: claw, squad: dev_squad, skills: [ts], manages: [sindri]}
    bragi: {tier: 1, role: social_lead, squad: social, reports_to: claw}
`);
  const res = await h.json<ApiBody<"getOrgStructure">>("/api/org-structure");
  assert.is(res.status, 200);
  assert.is(res.body.ok, true);
  const org = res.body.org;
  assert.is(org.name, "ClawHalla");
  assert.is(org.owner, "User");
  assert.equal(org.tiers, [{ tier: 0, name: "platform" }, { tier: 1, name: "squad_lead" }, { tier: 2, name: "execution" }]);
  assert.equal(org.agents[1], { id: "freya", name: "freya", tier: 1, role: "dev_lead", model: "claude-sonnet-4-6", squad: "dev_squad", reportsTo: "claw", manages: ["sindri"], skills: ["ts"] });
  assert.is(org.agents[2]?.id, "bragi");
  assert.is(org.agents[2]?.model, null);
  assert.equal(org.squads[0], { id: "dev_squad", name: "Dev", lead: "freya", chief: "claw", members: ["freya", "sindri"], domain: "code" });
  assert.equal(org.squads[1]?.members, ["bragi"], "members derived from the agents when the squad lists none");
  assert.is(org.escalation.length, 3, "the spec's chain when the file has none");
  assert.equal(org.escalation[2], { from: "executive", to: "owner", triggers: ["budget", "strategy", "external_communication", "deploy_approval"] });
  assert.equal(res.body.warnings, []);
});

t("the scaffolded template file parses with its escalation chain and four squads", async ({ h }) => {
  const template = fileURLToPath(new URL("../../../core/internal/workspace/template/company/org_structure.yaml", import.meta.url));
  writeOrg(h, readFileSync(template));
  const res = await h.json<ApiBody<"getOrgStructure">>("/api/org-structure");
  assert.is(res.status, 200);
  assert.equal(res.body.org.squads.map((s) => s.id).sort(), ["blockchain", "dev_squad", "personal", "social"]);
  assert.ok(res.body.org.squads.every((s) => typeof s.lead === "string"));
  assert.is(res.body.org.escalation[0]?.from, "execution");
  assert.equal(res.body.warnings, []);
});

t("wrong field types are reported as warnings, never a crash", async ({ h }) => {
  writeOrg(h, `org:
  name: [not, a, string]
  tiers: 7
  agents:
    odin: {tier: high, manages: 5, skills: [a, {b: 1}]}
    broken: just-a-string
  escalation_chain:
    - {from: execution}
    - nope
`);
  const res = await h.json<ApiBody<"getOrgStructure">>("/api/org-structure");
  assert.is(res.status, 200);
  assert.is(res.body.org.name, null);
  assert.is(res.body.org.agents.length, 1);
  assert.is(res.body.org.agents[0]?.tier, null);
  assert.equal(res.body.org.agents[0]?.skills, ["a"]);
  assert.equal(res.body.org.escalation, []);
  for (const path of ["org.name", "org.tiers", "org.agents.odin.tier", "org.agents.odin.manages", "org.agents.broken", "org.escalation_chain.0"]) {
    assert.ok(res.body.warnings.some((w: string) => w.startsWith(path)), path);
  }
});

t("malformed YAML: 422 ORG_FILE_INVALID with line and column", async ({ h }) => {
  writeOrg(h, "org:\n  name: x\n  agents: [a\n  b: 2\n");
  const res = await h.json<ApiBody<"getOrgStructure">>("/api/org-structure");
  assert.is(res.status, 422);
  assert.is(res.body.error?.code, "ORG_FILE_INVALID");
  assert.type((res.body.error?.details as Record<string, unknown> | undefined)?.line, "number");
  assert.type((res.body.error?.details as Record<string, unknown> | undefined)?.column, "number");
  assert.match(String(res.body.error?.message), /line \d+, column \d+/);

  for (const [content, label] of [
    ["org:\n  name: a\n  name: b\n", "duplicate key"],
    ["- just\n- a list\n", "not a mapping"],
    ["org: 42\n", "org not a mapping"],
    ["org: &a\n  name: x\n  agents: [*a]\n", "circular alias"],
    ["a: &a [1, 2]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n", "alias bomb"],
  ] as const) {
    writeOrg(h, content);
    const r = await h.json<ApiBody<"getOrgStructure">>("/api/org-structure");
    assert.is(r.status, 422, label);
    assert.is(r.body.error?.code, "ORG_FILE_INVALID", label);
  }
});

t("binary or huge organisation files: 422", async ({ h }) => {
  writeOrg(h, Buffer.from([0x00, 0xff, 0x00]));
  const binary = await h.json<ApiBody<"getOrgStructure">>("/api/org-structure");
  assert.is(binary.status, 422);
  writeOrg(h, `org:\n  name: big\n  note: "${"x".repeat(1024 * 1024 + 10)}"\n`);
  const huge = await h.json<ApiBody<"getOrgStructure">>("/api/org-structure");
  assert.is(huge.status, 422);
  assert.is((huge.body.error?.details as Record<string, unknown> | undefined)?.code, "TOO_LARGE");
  rmSync(join(h.workspace, ORG));
});

t("an organisation file that is a symlink out of the workspace reads as absent", async ({ h }) => {
  const { mkdtempSync, writeFileSync, symlinkSync, rmSync, renameSync, existsSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const { join } = await import("node:path");
  const outside = mkdtempSync(join(tmpdir(), "muster-org-outside-"));
  writeFileSync(join(outside, "org.yaml"), "org:\n  name: Outside\n  owner: intruder\n");
  const file = join(h.workspace, "company/org_structure.yaml");
  const saved = `${file}.saved`;
  if (existsSync(file)) renameSync(file, saved);
  symlinkSync(join(outside, "org.yaml"), file);
  try {
    const res = await h.json<ApiBody<"getOrgStructure">>("/api/org-structure");
    assert.is(res.status, 404);
    assert.is(res.body.error?.code, "ORG_FILE_NOT_FOUND");
    assert.not.ok(JSON.stringify(res.body).includes("intruder"));
  } finally {
    rmSync(file);
    if (existsSync(saved)) renameSync(saved, file);
    rmSync(outside, { recursive: true, force: true });
  }
});

t.run();
