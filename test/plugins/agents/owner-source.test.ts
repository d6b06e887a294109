// Issue 23: the host reads no feature's files. The owner (who decides when no one else is
// named) comes from MUSTER_OWNER, else from the agents plugin's owner source (the
// organisation file's org.owner), else "owner"; seen through who decided an approval.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { builtInPlugins } from "../../../plugins/built-in.ts";
import { removeHome, withTestHost, type StartOptions } from "../../helpers/start-test-host.ts";
import type { ApiBody } from "@muster/plugin/testing";

const t = suite("the owner: configuration, the organisation file through the agents plugin, or the default");

/** Decides a fresh approval with the session token and no `decidedBy`: the owner decides. */
async function decider(options: StartOptions, orgOwner: string | null): Promise<string> {
  const home = mkdtempSync(join(tmpdir(), "muster-home-"));
  const workspace = join(home, "workspace");
  mkdirSync(join(workspace, "company"), { recursive: true });
  if (orgOwner) writeFileSync(join(workspace, "company", "org_structure.yaml"), `org:\n  name: Test\n  owner: ${orgOwner}\n  agents: {}\n`);
  try {
    return await withTestHost({ ...options, home, workspace }, async (h) => {
      const created = await h.json<ApiBody<"postApprovals"> & { id?: string }>("/api/approvals", { method: "POST", body: { title: "Deploy v2", type: "deploy", requestedBy: "odin", context: "All tests green" } });
      assert.is(created.status, 201, JSON.stringify(created.body));
      const id = created.body.approval?.id ?? created.body.id;
      const decided = await h.json<ApiBody<"patchApprovalsById">>(`/api/approvals/${id}`, { method: "PATCH", body: { status: "approved" }, session: true });
      assert.is(decided.status, 200, JSON.stringify(decided.body));
      return decided.body.approval.decidedBy as string;
    });
  } finally {
    removeHome(home);
  }
}

t("the organisation file's owner decides when MUSTER_OWNER is not set", async () => {
  assert.is(await decider({}, "Frigg"), "Frigg");
});

t("MUSTER_OWNER wins over the organisation file", async () => {
  assert.is(await decider({ config: { owner: "Daniel" } }, "Frigg"), "Daniel");
});

t("without the agents plugin the host does not read the organisation file: the owner is 'owner'", async () => {
  const withoutCrew = builtInPlugins.filter((p) => !["agents", "council", "chat", "dispatch", "crons"].includes(p.id));
  assert.is(await decider({ plugins: withoutCrew }, "Frigg"), "owner");
});

t.run();
