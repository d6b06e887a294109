import { z, type PluginRouter } from "@muster/plugin";
import type { WorkTracker } from "../tokens.ts";
import type { WorkKind } from "../services/kinds.ts";
import { emptyQuery, idQuery, okSchema } from "./schemas.ts";

export interface CollectionSchemas {
  create: z.ZodType<Record<string, unknown>>;
  update: z.ZodType<{ id: string } & Record<string, unknown>>;
  record: z.ZodType;
}

/**
 * Sprints, epics, stories and projects share one shape (DESIGN §5): GET lists, POST
 * creates (201), PATCH takes `{ id, ...fields }`, DELETE takes `?id=`.
 */
export function mountCollection(router: PluginRouter, path: string, kind: WorkKind, label: string, s: CollectionSchemas, work: WorkTracker): void {
  router.get(path, { summary: `All ${label}, most recently updated first`, query: emptyQuery, response: z.array(s.record) }, () => work.list(kind));
  router.post(path, { summary: `Create a ${kind}`, body: s.create, status: 201, response: s.record }, ({ body }) => work.create(kind, body));
  router.patch(path, { summary: `Change some fields of a ${kind} (id in the body)`, body: s.update, response: s.record }, ({ body }) => {
    const { id, ...changes } = body;
    return work.update(kind, id, changes);
  });
  router.delete(path, { summary: `Delete a ${kind} and clear references to it (session token)`, query: idQuery, response: okSchema }, async ({ query }) => {
    await work.delete(kind, query.id);
    return { ok: true };
  });
}
