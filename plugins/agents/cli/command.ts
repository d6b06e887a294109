import type { PluginCommand } from "@muster/plugin";

/** `muster packs install <name>`; the implementation (viem, the SDK) is imported only when the command runs. */
export const packsCommand: PluginCommand = {
  name: "packs",
  usage: "packs install <name> [--holder <address>]",
  summary: "install a squad pack through the running server; a licensed pack is signed for with MUSTER_WALLET_KEY",
  async run(args, io) {
    const { runPacksCommand } = await import("./packs-command.ts");
    return runPacksCommand(args, io);
  },
};
