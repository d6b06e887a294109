import { defineEntity, p, type EntityRow } from "@muster/plugin";

/** Memory configuration set through POST /api/memory/config (key `config`, JSON value). */
export const RagSetting = defineEntity({
  name: "RagSetting",
  tableName: "rag_settings",
  properties: {
    key: p.string().primary(),
    value: p.text(),
  },
});
export type RagSettingRow = EntityRow<typeof RagSetting>;
