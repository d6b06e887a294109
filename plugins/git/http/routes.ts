import { defineRoutes, type PluginRouter } from "@muster/plugin";
import { GIT, type GitRepository } from "../tokens.ts";
import { gitBody, operationResponse, statusResponse } from "./schemas.ts";

export const gitRoutes = defineRoutes({
  deps: { git: GIT },
  mount: (router, { git }) => mountGitRoutes(router, git),
});

function mountGitRoutes(router: PluginRouter, git: GitRepository): void {
  router.get(
    "/api/git",
    { summary: "Repository status of git.repoPath: branch, last commits, changed files, ahead/behind its upstream", response: statusResponse },
    async () => ({ ok: true, ...(await git.status()) }),
  );

  router.post(
    "/api/git",
    {
      summary: "commit (201 { commit }) or request a push/pull (202 { approval }: runs only when a human approves it)",
      description: "Commit: nothing to commit → 409, files outside the repository → 400. Push and pull are the gated kinds git.push and git.pull. See docs/git.md.",
      body: gitBody,
      status: 201,
      response: operationResponse,
    },
    async ({ body, agentId, koa }) => {
      if (body.operation === "commit") return { ok: true, commit: await git.commit(body) };
      const approval = await git.requestSync({ operation: body.operation, remote: body.remote, branch: body.branch, requestedBy: agentId ?? body.requestedBy ?? "api" });
      koa.status = 202;
      return { ok: true, approval };
    },
  );
}
