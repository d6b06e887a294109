// The host side of the approval gate: the registry of gated action kinds. Creating and
// deciding approvals belongs to the approvals plugin, reached through `hostTokens.gateBackend`.
import type { ApprovalGate, GateBackend, GatedAction } from "../plugin-api/gate.ts";
import { hostErrors } from "../plugin-api/errors.ts";

const KIND = /^[a-z][a-z0-9-]*\.[a-z][a-z0-9._-]*$/;

/**
 * The host's side of the gate: plugins get {@link ApprovalGate} (see {@link publicGate}); only
 * the host defines kinds, from the plugins' `gatedActions` declarations.
 */
export interface GateRegistry extends ApprovalGate {
  /** Defines a gated action kind (`publishing.post`). Throws if the kind is already defined. */
  define<P>(kind: string, action: GatedAction<P>): void;
}

export function createGateRegistry(backend: () => GateBackend | undefined): GateRegistry {
  const actions = new Map<string, GatedAction>();
  return {
    define(kind, action) {
      if (!KIND.test(kind)) throw new Error(`Gated action kind "${kind}" must look like <plugin>.<action>`);
      if (actions.has(kind)) throw new Error(`Gated action kind "${kind}" is already defined`);
      actions.set(kind, action as GatedAction);
    },
    async request(kind, payload, options) {
      if (!actions.has(kind)) throw hostErrors.GATE_UNKNOWN_KIND({ kind });
      const impl = backend();
      if (!impl) {
        // Fail closed: without the approvals plugin nothing external can ever run.
        throw hostErrors.GATE_UNAVAILABLE();
      }
      return impl.createGatedApproval(kind, payload, options);
    },
    action: (kind) => actions.get(kind),
    kinds: () => [...actions.keys()],
  };
}

/** The registry without `define`, the object plugins receive, so no plugin can define a kind at run time. */
export function publicGate(registry: GateRegistry): ApprovalGate {
  return Object.freeze({ request: registry.request, action: registry.action, kinds: registry.kinds });
}
