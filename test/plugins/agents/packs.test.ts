// Squad packs through HTTP: listing with bad files reported, install all or nothing, and every
// refusal (path escapes, missing persona templates, existing agents, a failure half-way,
// installed twice, licence needed) with nothing written.
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { ORG, startAgentsRig, type AgentsRig } from "./agents-rig.ts";
import type { ApiBody } from "@muster/plugin/testing";

const agent = (id: string, over: Record<string, unknown> = {}) => ({ id, name: id.toUpperCase(), role: "operator", model: "m-small", tier: 3, skills: ["ops"], ...over });
const pack = (name: string, over: Record<string, unknown> = {}) =>
  JSON.stringify({ name, version: "1.2.3", description: `${name} pack`, squad: { id: name, name: `${name} squad`, domain: "ops", chief: `${name}-a` }, agents: [agent(`${name}-a`, { tier: 2, persona: "developer" }), agent(`${name}-b`, { reportsTo: `${name}-a` })], ...over });

const FILES = {
  "company/org_structure.yaml": ORG,
  "personas/execution/developer.md": "# Developer persona",
  "packs/valet.json": pack("valet", { directories: ["projects/valet/board"] }),
  "packs/broken.json": "{ not json",
  "packs/bad-version.json": pack("badver", { version: "1.0" }),
  "packs/escape.json": pack("escape", { directories: ["projects/ok", "../outside"] }),
  "packs/escape-abs.json": pack("escapeabs", { agents: [agent("ea", { workspace: "/etc/ea" })] }),
  "packs/nopersona.json": pack("nopersona", { agents: [agent("np", { persona: "poet" })] }),
  "packs/clash.json": pack("clash", { agents: [agent("clash-a"), agent("loki")] }),
  "packs/halfway.json": pack("halfway", { directories: ["projects/halfway"], agents: [agent("h1"), agent("h2"), agent("h3")] }),
  "packs/licensed.json": pack("licensed", { templateId: 1 }),
};

const t = suite<{ rig: AgentsRig }>("agents: packs");
t.before(async (ctx) => {
  ctx.rig = await startAgentsRig({ files: FILES });
});
t.after(async ({ rig }) => rig.close());

const orgText = (rig: AgentsRig) => readFileSync(join(rig.h.workspace, "company/org_structure.yaml"), "utf8");
const install = (rig: AgentsRig, body: unknown) => rig.h.json<ApiBody<"postPacks">>("/api/packs", { method: "POST", body });

t("GET /api/packs lists valid packs with the spec's fields and invalid files under errors, never a 500", async ({ rig }) => {
  const r = await rig.h.json<ApiBody<"getPacks">>("/api/packs");
  assert.is(r.status, 200);
  const valet = r.body.packs.find((p) => p.name === "valet");
  assert.equal(valet, { name: "valet", version: "1.2.3", description: "valet pack", agents: 2, file: "packs/valet.json", installed: false, templateId: null });
  assert.equal(r.body.errors.map((e) => e.file).sort(), ["packs/bad-version.json", "packs/broken.json"]);
  assert.match(r.body.errors.find((e) => e.file === "packs/bad-version.json")?.reason ?? "", /version/);
});

t("refusals leave nothing behind", async ({ rig }) => {
  const before = orgText(rig);
  const cases: [unknown, number, string][] = [
    [{ name: "nothere" }, 404, "PACK_NOT_FOUND"],
    [{ name: "badver" }, 404, "PACK_NOT_FOUND"],
    [{ name: "escape" }, 400, "PACK_PATH_OUTSIDE_WORKSPACE"],
    [{ name: "escapeabs" }, 400, "PACK_PATH_OUTSIDE_WORKSPACE"],
    [{ name: "nopersona" }, 400, "PACK_TEMPLATE_NOT_FOUND"],
    [{ name: "clash" }, 409, "PACK_AGENT_EXISTS"],
    [{ name: "licensed" }, 403, "LICENSE_PROOF_REQUIRED"],
    // A bare buyer address no longer suffices (packs-licence.test.ts signs real proofs on a chain).
    [{ name: "licensed", buyer: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" }, 403, "LICENSE_PROOF_REQUIRED"],
    [{ name: "licensed", buyer: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", proof: { nonce: `0x${"ab".repeat(32)}`, expiresAt: 4_000_000_000, signature: `0x${"11".repeat(65)}` } }, 503, "LICENSE_CHECK_UNAVAILABLE"],
    [{ name: "licensed", buyer: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", proof: { nonce: "0x12", expiresAt: 1, signature: "0x11" } }, 400, "VALIDATION_FAILED"],
    [{}, 400, "VALIDATION_FAILED"],
    [{ name: "../packs/valet" }, 400, "VALIDATION_FAILED"],
    [{ name: "valet", buyer: "0x123" }, 400, "VALIDATION_FAILED"],
    [{ name: "valet", extra: 1 }, 400, "VALIDATION_FAILED"],
  ];
  for (const [body, status, code] of cases) {
    const r = await install(rig, body);
    assert.is(r.status, status, JSON.stringify(body));
    assert.is(r.body.error?.code, code, JSON.stringify(body));
  }
  const challenges: [Record<string, unknown>, number, string][] = [
    [{ name: "valet", holder: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" }, 400, "PACK_NOT_LICENSED"],
    [{ name: "licensed", holder: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" }, 503, "LICENSE_CHECK_UNAVAILABLE"],
    [{ name: "nope", holder: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" }, 404, "PACK_NOT_FOUND"],
    [{ name: "licensed", holder: "0x123" }, 400, "VALIDATION_FAILED"],
  ];
  for (const [body, status, code] of challenges) {
    const r = await rig.h.json<ApiBody<"postPacksLicenceChallenge">>("/api/packs/licence-challenge", { method: "POST", body });
    assert.is(r.status, status, JSON.stringify(body));
    assert.is(r.body.error?.code, code, JSON.stringify(body));
  }
  assert.is(orgText(rig), before);
  assert.not.ok(existsSync(join(rig.h.workspace, "projects/ok")));
  assert.not.ok(existsSync(join(rig.h.workspace, "agents/clash-a")));
  assert.is((await rig.h.json<ApiBody<"getAgentsById">>("/api/agents/clash-a")).status, 404);
  assert.is((await rig.h.json<ApiBody<"getApprovals">>("/api/approvals")).body.pending.length, 0);
});

t("a failure half-way (the second agent's files cannot be written) removes everything the install wrote", async ({ rig }) => {
  const before = orgText(rig);
  mkdirSync(join(rig.h.workspace, "agents/h2/HEARTBEAT.md"), { recursive: true });
  const r = await install(rig, { name: "halfway" });
  assert.is(r.status, 500);
  assert.is(r.body.error?.code, "PACK_INSTALL_FAILED");
  assert.is(orgText(rig), before);
  assert.not.ok(existsSync(join(rig.h.workspace, "agents/h1")), "the first agent's files are gone");
  assert.not.ok(existsSync(join(rig.h.workspace, "agents/h3")));
  assert.equal(readdirSync(join(rig.h.workspace, "agents/h2")), ["HEARTBEAT.md"]);
  assert.not.ok(existsSync(join(rig.h.workspace, "projects/halfway")), "its directory is gone");
  for (const id of ["h1", "h2", "h3"]) assert.is((await rig.h.json<ApiBody<"getAgentsById">>(`/api/agents/${id}`)).status, 404);
  assert.is((await rig.h.json<ApiBody<"getPacks">>("/api/packs")).body.packs.find((p) => p.name === "halfway")?.installed, false);
});

t("install: agents, directories, organisation entries and squad, one pending approval; installing again → 409", async ({ rig }) => {
  const r = await install(rig, { name: "valet" });
  assert.is(r.status, 201, JSON.stringify(r.body));
  assert.equal(r.body.agents.map((a) => a.id), ["valet-a", "valet-b"]);
  assert.equal(r.body.directories, ["projects/valet/board"]);
  assert.equal(r.body.orgEntries, ["valet-a", "valet-b"]);
  assert.is(r.body.pack.installed, true);
  assert.is(r.body.approval.status, "pending");
  assert.is(r.body.approval.command, "agents.register", "the whole Approval record");
  assert.ok(existsSync(join(rig.h.workspace, "projects/valet/board")));
  assert.match(readFileSync(join(rig.h.workspace, "agents/valet-a/AGENTS.md"), "utf8"), /# Developer persona[\s\S]*Installed from pack: valet 1.2.3/);
  const org = orgText(rig);
  assert.match(org, /valet-a:/);
  assert.match(org, /valet:\n\s+name: valet squad/);
  assert.is((await rig.h.json<ApiBody<"getAgentsById">>("/api/agents/valet-b")).body.agent.reportsTo, "valet-a");
  const again = await install(rig, { name: "valet" });
  assert.is(again.status, 409);
  assert.is(again.body.error?.code, "PACK_ALREADY_INSTALLED");
  assert.is((await rig.h.json<ApiBody<"getPacks">>("/api/packs")).body.packs.find((p) => p.name === "valet")?.installed, true);
});

t.run();
