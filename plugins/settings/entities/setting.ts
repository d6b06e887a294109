import { defineEntity, p, type EntityRow } from "@muster/plugin";

/** A key-value setting; `value` is JSON text. */
export const Setting = defineEntity({
  name: "Setting",
  tableName: "settings_settings",
  properties: {
    key: p.string().primary(),
    value: p.text(),
    updatedAt: p.string(),
  },
});

export type SettingRow = EntityRow<typeof Setting>;
