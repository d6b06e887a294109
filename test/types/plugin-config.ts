// Type test (checked by `npm run typecheck`, never run): `ctx.config` has the type of the
// plugin's `config` schema's output, with its defaults applied.
import { definePlugin, z, type PluginContext } from "@muster/plugin";

const releaseNotesConfig = z.object({ title: z.string().default("Release notes"), maxEntries: z.number().int().default(50) });

export const typed = definePlugin({
  id: "typed-config",
  version: "1.0.0",
  host: "^1.0.0",
  config: releaseNotesConfig,
  onStart(ctx) {
    const title: string = ctx.config.title;
    const max: number = ctx.config.maxEntries;
    // @ts-expect-error: not a field of the schema
    void ctx.config.colour;
    // @ts-expect-error: title is a string
    const wrong: number = ctx.config.title;
    void [title, max, wrong];
  },
});

/** A service that is handed the context is typed the same way. */
export function readTitle(ctx: PluginContext<z.output<typeof releaseNotesConfig>>): string {
  return ctx.config.title;
}

export const untyped = definePlugin({
  id: "no-config",
  version: "1.0.0",
  host: "^1.0.0",
  onStart(ctx) {
    // @ts-expect-error: a plugin without a config schema has no config fields
    void ctx.config.anything;
  },
});
