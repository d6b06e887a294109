import { defineErrors, PUBLISHED_BEFORE_PREFIX_RULE } from "@muster/plugin";

/** Error catalogue of the memory plugin (memory, docs and organisation readers). */
export const memoryErrors = defineErrors("memory", {
  MEMORY_LONGTERM_NOT_FOUND: { status: 404, message: "The workspace has no long-term memory file (MEMORY.md)" },
  MEMORY_FILE_NOT_TEXT: { status: 422, message: "{path} is not a text file" },
  ORG_FILE_NOT_FOUND: { status: 404, message: "The workspace has no organisation file (company/org_structure.yaml)" },
  MEMORY_ROUTE_OUTSIDE_PREFIX: { status: 500, message: 'Plugin "{plugin}" contributes the route {path}, outside /api/memory/' },
  ORG_FILE_INVALID: { status: 422, message: "The organisation file is not valid: {reason}" },
}, {
  // Codes without the prefix MEMORY_ that clients already match: they keep their names (docs/errors.md).
  exempt: {
    ORG_FILE_NOT_FOUND: PUBLISHED_BEFORE_PREFIX_RULE,
    ORG_FILE_INVALID: PUBLISHED_BEFORE_PREFIX_RULE,
  },
});
