// The owner named by the organisation file (`org.owner`), for the host's boot when the
// configuration names none (hostPoints.ownerSources). Synchronous: the host asks once, during
// its start (after it listens, before any request but health is let through). A malformed file is reported by the workspace readers; here it names no one.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { OwnerSource } from "@muster/plugin";
import { ORG_FILE, orgValues } from "./org-file.ts";

export const organisationOwner: OwnerSource = {
  owner(workspaceRoot) {
    const path = join(workspaceRoot, ORG_FILE);
    try {
      if (!existsSync(path)) return null;
      // Parsed through orgValues, which keeps it for the first sync's emojis.
      const owner = (orgValues(readFileSync(path, "utf8")) as { org?: { owner?: unknown } }).org?.owner;
      return typeof owner === "string" ? owner : null;
    } catch {
      return null;
    }
  },
};
