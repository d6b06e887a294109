import { defineRoutes, hostTokens, z, type PluginRouter, type RouteInput } from "@muster/plugin";
import { vaultErrors } from "../errors.ts";
import { VAULT_STORE } from "../tokens.ts";
import type { SecretStore } from "../services/secret-store.ts";
import { deleteQuery, injectBody, injectResponse, listResponse, revealBody, revealResponse, saveBody, secretResponse } from "./schemas.ts";

/** No vault answer may be cached by a browser or proxy, whether it holds a value or not. */
function noStore(input: RouteInput<unknown, unknown, unknown>) {
  input.setHeader("Cache-Control", "no-store");
}

export const vaultRoutes = defineRoutes({
  deps: { store: VAULT_STORE, host: hostTokens.info },
  // The owner is read per request: the host resolves it on first read, after listening.
  mount: (router, { store, host }) => mountVaultRoutes(router, store, () => host.owner),
});

function mountVaultRoutes(router: PluginRouter, store: SecretStore, owner: () => string): void {
  const actor = (agentId: string | null) => agentId ?? owner();

  router.get("/api/vault", { summary: "Secrets' metadata (never values)", query: z.strictObject({}), response: listResponse }, async (input) => {
    noStore(input);
    return { ok: true, secrets: await store.list() };
  });

  router.post(
    "/api/vault",
    {
      summary: "Store a secret: creates it (201) or, when the name exists, re-encrypts the new value (200)",
      description: "description and category stay unchanged on update when omitted; createdBy (default: the agent, else the owner) applies on create only.",
      body: saveBody,
      status: 201,
      response: secretResponse,
    },
    async (input) => {
      noStore(input);
      const { body, agentId } = input;
      const { secret, created } = await store.save({ ...body, createdBy: body.createdBy ?? actor(agentId) }, actor(agentId));
      if (!created) input.koa.status = 200;
      return { ok: true, secret };
    },
  );

  router.delete(
    "/api/vault",
    { summary: "Delete a secret by name (session token)", query: deleteQuery, response: z.object({ ok: z.literal(true) }) },
    async (input) => {
      noStore(input);
      await store.remove(input.query.name, actor(input.agentId));
      return { ok: true };
    },
  );

  router.post(
    "/api/vault/reveal",
    {
      summary: "Decrypt one secret (session token; refused to agents)",
      description: "Sets lastAccessedAt and logs an activity in the same transaction. The response carries Cache-Control: no-store.",
      body: revealBody,
      auth: "session",
      response: revealResponse,
    },
    async (input) => {
      noStore(input);
      if (input.agentId) throw vaultErrors.VAULT_AGENT_FORBIDDEN();
      const value = await store.reveal(input.body.name, owner());
      return { ok: true, name: input.body.name, value };
    },
  );

  router.post(
    "/api/vault/inject",
    {
      summary: "Put a secret into the environment of child processes Muster starts, under envVar (session token)",
      description: "Never into the server's own environment; protected variables (PATH, NODE_OPTIONS, LD_*, VAULT_KEY, ...) are refused with 403. Lasts until the server stops.",
      body: injectBody,
      auth: "session",
      response: injectResponse,
    },
    async (input) => {
      noStore(input);
      await store.inject(input.body.name, input.body.envVar, actor(input.agentId));
      return { ok: true, name: input.body.name, envVar: input.body.envVar };
    },
  );
}
