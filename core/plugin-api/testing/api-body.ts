// The body a route answers, typed from the server's own OpenAPI (the generated SDK), for tests
// that call a route with `h.json` because they assert its exact status or a refusal.
import type { OperationName, Operations } from "@muster/sdk/client";
import type { Answer } from "./approvals.ts";

/** `h.json<ApiBody<"getTasks">>("/api/tasks")`: the success schema of the route, plus `error` when it refused. */
export type ApiBody<K extends OperationName> = Answer<Operations[K]["response"]>;
