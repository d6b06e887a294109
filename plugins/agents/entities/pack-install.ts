import { defineEntity, p, type EntityRow } from "@muster/plugin";

/** One installed squad pack (a pack installs once; its agents then live in the organisation file). */
export const PackInstall = defineEntity({
  name: "PackInstall",
  tableName: "agents_pack_installs",
  properties: {
    name: p.string().primary(),
    version: p.string(),
    /** JSON array of the agent ids it added. */
    agents: p.text(),
    installedAt: p.string(),
  },
});

export type PackInstallRow = EntityRow<typeof PackInstall>;
