// The vault page's shared types and the events it follows (names only, never values).
import type { Muster } from "@muster/console";

export type Secret = Awaited<ReturnType<Muster["getVault"]>>["secrets"][number];

/** Stored, updated or deleted secrets (public events carry names, never values). */
export const VAULT_EVENTS = ["vault.secret.*"];
