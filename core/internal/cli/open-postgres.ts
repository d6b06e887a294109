// DATABASE_URL's PostgreSQL for a plugin command or doctor check (CommandIo.openPostgres,
// DoctorContext.openPostgres): the host's own opener, with the command's entities and a silent
// logger. Loaded only when DATABASE_URL is set, as in host.ts.
import type { EntitySchema } from "@mikro-orm/core";
import type { Database } from "../../plugin-api/context.ts";

export async function openPostgresFor(url: string | null, entities: EntitySchema<any, any>[]): Promise<(Database & { close(): Promise<void> }) | null> {
  if (!url) return null;
  const [{ openPostgresDatabase }, { default: pino }] = await Promise.all([import("../postgres-database.ts"), import("pino")]);
  return openPostgresDatabase({ url, entities, logger: pino({ level: "silent" }) });
}
