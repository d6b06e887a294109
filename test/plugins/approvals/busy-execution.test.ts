// An approved gated action whose outcome write meets another connection's write lock: the
// action ran, so the outcome must still be recorded once the lock is gone, and the decision
// must not be re-run (the storage guard re-runs a handler only up to its first write).
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { defineGatedAction, definePlugin, z, type PluginDefinition } from "@muster/plugin";
import { activitiesPlugin } from "../../../plugins/activities/index.ts";
import { notificationsPlugin } from "../../../plugins/notifications/index.ts";
import { approvalsPlugin } from "../../../plugins/approvals/index.ts";
import { withTestHost } from "../../helpers/start-test-host.ts";
import { sleep, waitUntil } from "../../helpers/wait.ts";
import { decideApproval } from "@muster/plugin/testing";
import type { ApiBody } from "@muster/plugin/testing";

const KIND = "busy-test.send";
let runs = 0;
let finish: () => void = () => undefined;

/** Defines a gated action that runs until the test lets it finish. */
const busyTestPlugin = definePlugin({
  id: "busy-test",
  version: "1.0.0",
  host: "^1.0.0",
  dependsOn: ["approvals"],
  paths: ["/api/busy-test"],
  gatedActions: [
    defineGatedAction({
      kind: KIND,
      deps: {},
      create: () => ({
        describe: (p: { text: string }) => `Send "${p.text}"`,
        async execute(payload: { text: string }) {
          runs++;
          await new Promise<void>((resolve) => (finish = resolve));
          return { sent: true, echo: payload.text };
        },
      }),
    }),
  ],
  routes(router, ctx) {
    router.post(
      "/api/busy-test",
      { summary: "Request the gated test action", status: 201, body: z.strictObject({ text: z.string() }) },
      async ({ body }) => ({ ok: true, ...(await ctx.gate.request(KIND, { text: body.text }, { requestedBy: "odin", title: "Send" })) }),
    );
  },
});

const plugins: PluginDefinition[] = [activitiesPlugin, notificationsPlugin, approvalsPlugin];
const t = suite("approvals: outcome write meets a lock");

t("the executor runs once and its outcome is recorded after the lock is released", async () => {
  await withTestHost({ plugins, extraPlugins: [busyTestPlugin], config: { approvers: ["frigg"], databaseBusyBudgetMs: 10_000 } }, async (h) => {
    // The suite's own gated route (outside the OpenAPI) answers the approval it raised.
    const requested = await h.json<{ approvalId: string }>("/api/busy-test", { method: "POST", body: { text: "hi" } });
    assert.is(requested.status, 201, JSON.stringify(requested.body));
    const id = requested.body.approvalId;
    const decided = decideApproval(h, id, "approved");
    await waitUntil(() => runs === 1, { label: "the executor to start" });
    // Fault injection: another process holds the write lock while the outcome is written.
    const other = new BetterSqlite3(join(h.home, "muster.db"));
    try {
      other.exec("BEGIN IMMEDIATE");
      finish();
      await sleep(300); // a sleep on purpose: the outcome write meets the held lock within it
      other.exec("ROLLBACK");
    } finally {
      other.close();
    }
    const res = await decided;
    assert.is(res.status, 200, JSON.stringify(res.body));
    assert.is(res.body.approval.executionStatus, "succeeded");
    assert.is(runs, 1);
    const stored = (await h.json<ApiBody<"getApprovalsById">>(`/api/approvals/${id}`)).body.approval;
    assert.is(stored.executionStatus, "succeeded");
    assert.equal(stored.executionResult, { sent: true, echo: "hi" });
  });
});

t.run();
