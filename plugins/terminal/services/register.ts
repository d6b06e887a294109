import { configToken, defineService, hostTokens, type PluginContext } from "@muster/plugin";
import { ACTIVITIES } from "../../activities/tokens.ts";
import { VAULT_ENVIRONMENT, VAULT_SECRETS } from "../../vault/tokens.ts";
import type { TerminalConfig } from "../config.ts";
import { TERMINAL } from "../tokens.ts";
import { TerminalService } from "./terminal-service.ts";
import { realPathLoose } from "./working-directory.ts";

export function registerTerminalServices(ctx: PluginContext<TerminalConfig>): void {
  ctx.provide(
    defineService({
      token: TERMINAL,
      deps: {
        config: configToken<TerminalConfig>(),
        logger: hostTokens.logger,
        events: hostTokens.events,
        host: hostTokens.info,
        workspace: hostTokens.workspace,
        activities: ACTIVITIES,
        vault: VAULT_SECRETS,
        environment: VAULT_ENVIRONMENT,
      },
      create: ({ host, workspace, ...deps }) => new TerminalService({ ...deps, get owner() { return host.owner; }, data: { home: realPathLoose(host.home), workspace: workspace.root } }),
    }),
  );
}
