import { configToken, defineService, hostTokens, type PluginContext } from "@muster/plugin";
import { APPROVALS } from "../../approvals/tokens.ts";
import { VAULT_SECRETS } from "../../vault/tokens.ts";
import type { GitConfig } from "../config.ts";
import { GIT, GIT_SYNC } from "../tokens.ts";
import { GitService } from "./git-service.ts";
import { SerialQueue } from "@muster/plugin";
import { SyncRunner } from "./sync-runner.ts";

/** Provides the repository service and the push/pull runner (which the gated kinds `git.push` and `git.pull` run). */
export function registerGitServices(ctx: PluginContext<GitConfig>): void {
  // One queue for everything that writes the repository: a commit and an approved pull must not interleave.
  const queue = new SerialQueue();
  ctx.provide(
    defineService({
      token: GIT,
      deps: { config: configToken<GitConfig>(), workspace: hostTokens.workspace, gate: hostTokens.gate, approvals: APPROVALS, events: hostTokens.events, logger: hostTokens.logger },
      create: ({ workspace, ...deps }) => new GitService({ ...deps, workspaceRoot: workspace.root, queue }),
    }),
  );
  ctx.provide(
    defineService({
      token: GIT_SYNC,
      deps: { git: GIT, config: configToken<GitConfig>(), logger: hostTokens.logger },
      // Without the vault there are no stored secrets to redact from git's output.
      optionalDeps: { secrets: VAULT_SECRETS },
      create: ({ git, config, logger, secrets }) =>
        new SyncRunner({
          vetted: () => git.vetted(),
          queue,
          timeoutMs: config.syncTimeoutMs,
          localTimeoutMs: config.localTimeoutMs,
          redact: (text) => (secrets ? secrets.redact(text) : text),
          logger,
        }),
    }),
  );
}
