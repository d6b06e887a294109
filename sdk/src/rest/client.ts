import { operations, type OperationName, type Operations } from "./generated/operations.ts";
import { call, type CallInput, type CallOptions, type MusterClientConfig } from "./transport.ts";

type RestMethod<K extends OperationName> = Operations[K]["argsRequired"] extends true
  ? (args: Operations[K]["args"], options?: CallOptions) => Promise<Operations[K]["response"]>
  : (args?: Operations[K]["args"], options?: CallOptions) => Promise<Operations[K]["response"]>;

/** One method per route of the server, named from the route (`GET /api/tasks/{id}` → `getTasksById`). */
export type RestActions = { [K in OperationName]: RestMethod<K> };

export interface MusterClient extends RestActions {
  readonly config: Readonly<MusterClientConfig>;
  /** Adds actions built on this client, as viem's `client.extend` does. */
  extend<E extends object>(actions: (client: MusterClient) => E): MusterClient & E;
}

/**
 * A typed client for every route of a Muster server. Arguments and answers are typed from the
 * server's own schemas (generated from /api/openapi.json); errors are `MusterApiError`s
 * carrying the server's stable `code`.
 *
 * @example
 * const muster = createMusterClient({ url: "http://127.0.0.1:3333", agentId: "scout" });
 * const task = await muster.postTasks({ body: { title: "Summarise the inbox" } });
 * const open = await muster.getTasks({ query: { status: "backlog" } });
 */
export function createMusterClient(config: MusterClientConfig): MusterClient {
  const frozen = Object.freeze({ ...config });
  const client = { config: frozen } as MusterClient;
  for (const name of Object.keys(operations) as OperationName[]) {
    (client as unknown as Record<string, unknown>)[name] = (args?: CallInput, options?: CallOptions) => call(frozen, name, args, options);
  }
  client.extend = <E extends object>(actions: (base: MusterClient) => E) => Object.assign(Object.create(null), client, actions(client)) as MusterClient & E;
  return client;
}
