// release-notes.test.ts: the README's plugin tested on a real host with @muster/plugin/testing (`node --test`)
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHost } from "muster";
import { builtInPlugins } from "muster/plugins";
import { MusterApiError } from "@muster/sdk";
import { decideApproval, waitForApproval, withTestHost } from "@muster/plugin/testing";
import releaseNotes from "../readme/release-notes.ts";

// A real host on a free port with a temporary MUSTER_HOME, removed when the body ends (or throws).
const host = { createHost, plugins: builtInPlugins, extraPlugins: [releaseNotes], config: { pluginConfig: { "release-notes": { maxNotes: 1 } } } };

test("the plugin's route adds a note, then refuses past maxNotes with its own code", () =>
  withTestHost(host, async (h) => {
    // The plugin's own routes: h.json (the typed client covers the host and the built-ins).
    const added = await h.json<{ note: { id: number; text: string; author: string } }>("/api/release-notes", { method: "POST", body: { text: "Faster search" }, headers: { "x-agent-id": "writer" } });
    assert.equal(added.status, 201);
    assert.deepEqual(added.body.note, { id: 1, text: "Faster search", author: "writer" });
    const full = await h.json("/api/release-notes", { method: "POST", body: { text: "One too many" } });
    assert.equal(full.status, 409);
    assert.equal(full.body.error!.code, "RELEASE_NOTES_FULL");
    // Everything else through the typed client: arguments and answers checked by tsc.
    const { plugins } = await h.client.getPlugins();
    assert.equal(plugins.find((p) => p.id === "release-notes")?.state, "started");
  }));

test("an approval an agent asks for is decided once by the human", () =>
  withTestHost(host, async (h) => {
    await h.clientAs("writer").postApprovals({ body: { title: "Publish 1.2 notes", type: "release-notes.publish", requestedBy: "writer", context: "Ready" } });
    const approval = await waitForApproval(h, (a) => a.command === "release-notes.publish");
    assert.equal((await decideApproval(h, approval.id, "approved")).body.approval.status, "approved");
    const again = await decideApproval(h, approval.id, "rejected");
    assert.equal(again.status, 409);
    assert.equal(again.body.error?.code, "APPROVAL_ALREADY_RESOLVED");
    // The typed client throws the server's code instead.
    await assert.rejects(h.client.patchApprovalsById({ id: approval.id, body: { status: "rejected" } }), (e) => e instanceof MusterApiError && e.code === "APPROVAL_ALREADY_RESOLVED");
  }));
