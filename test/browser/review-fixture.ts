// A test plugin standing in for the task review flow (issue 12): a gated action whose
// executor moves a task to `done`, requested through the real approval gate.
import { definePlugin, type PluginContext } from "@muster/plugin";
import { WORK } from "../../plugins/work/tokens.ts";

export const REVIEW_KIND = "reviewfix.complete";

export function reviewFixture() {
  let context: PluginContext | undefined;
  const plugin = definePlugin({
    id: "reviewfix",
    version: "1.0.0",
    host: "^1.0.0",
    dependsOn: ["approvals", "work"],
    register(ctx) {
      ctx.gate.define<{ taskId: string }>(REVIEW_KIND, {
        describe: (payload) => `Move task ${payload.taskId} to done`,
        execute: async (payload) => ctx.resolve(WORK).update("task", payload.taskId, { status: "done" }),
      });
    },
    onStart(ctx) {
      context = ctx;
    },
  });
  return {
    plugin,
    /** Asks, as an agent would, for the task's review to be accepted; returns the approval id. */
    async requestReview(taskId: string, title: string): Promise<string> {
      const { approvalId } = await context!.gate.request(REVIEW_KIND, { taskId }, { requestedBy: "editor", title, taskId, context: "Reviewed all five emails." });
      return approvalId;
    },
  };
}
