import type { PluginContext } from "@muster/plugin";
import { VAULT_KEYRING } from "../tokens.ts";

/** Derives the key once at start-up (a failure leaves the vault locked, Muster running). */
export async function startVault(ctx: PluginContext): Promise<void> {
  await ctx.resolve(VAULT_KEYRING).unlock();
}

/** Forgets the key at shutdown. */
export function stopVault(ctx: PluginContext): void {
  ctx.resolve(VAULT_KEYRING).close();
}
