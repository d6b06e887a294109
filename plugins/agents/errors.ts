import { defineErrors, PUBLISHED_BEFORE_PREFIX_RULE } from "@muster/plugin";

/** The agents plugin's error catalogue (docs/agents.md), the crew capability's codes included. */
export const agentsErrors = defineErrors("agents", {
  // One code for every feature that names agents (chat, council, dispatch, agents), raised by
  // the crew capability (CREW): "known" means in the organisation file or the gateway's agents.list.
  AGENT_NOT_FOUND: { status: 404, message: "No agent \"{agentId}\" in the organisation file or the gateway's agents.list" },
  // Known to Muster (organisation file) but not to the gateway's agents.list: chat and council
  // refuse it with the fix before any turn is sent, instead of the gateway's 502.
  AGENT_NOT_REGISTERED: {
    status: 409,
    message:
      "Agent {agentId} is in the organisation file but the OpenClaw gateway does not know it; register the missing crew with one approval: POST /api/agents/register-missing, then muster approvals approve <approvalId>",
  },
  AGENT_ALREADY_EXISTS: { status: 409, message: "An agent with id {agentId} already exists ({where}); pick another id" },
  AGENT_TEMPLATE_NOT_FOUND: { status: 404, message: "No persona template {templateId} under personas/<tier>/" },
  AGENT_FILES_WRITE_FAILED: { status: 500, message: "Writing the agent's files failed; nothing was kept" },
  AGENT_ORG_FILE_INVALID: { status: 422, message: "The organisation file cannot be updated: {reason}" },
  AGENTS_ALL_REGISTERED: { status: 409, message: "Every agent of the organisation file is registered with the gateway already; nothing to approve" },
  AGENT_CONFIG_UNCHANGED: { status: 409, message: "Agent {agentId} already has these tools and sandbox settings" },
  PACK_NOT_FOUND: { status: 404, message: "No valid pack named {name} under packs/" },
  PACK_ALREADY_INSTALLED: { status: 409, message: "Pack {name} is already installed" },
  PACK_INVALID: { status: 400, message: "Pack {name} cannot be installed: {reason}" },
  PACK_AGENT_EXISTS: { status: 409, message: "Pack {name} names agent {agentId}, which already exists; nothing was installed" },
  PACK_PATH_OUTSIDE_WORKSPACE: { status: 400, message: "Pack {name} names the path {path}, which leaves the workspace; nothing was installed" },
  PACK_TEMPLATE_NOT_FOUND: { status: 400, message: "Pack {name} names the persona template {template}, which does not exist; nothing was installed" },
  PACK_INSTALL_FAILED: { status: 500, message: "Installing pack {name} failed half-way; everything it wrote was removed" },
  LICENSE_REQUIRED: { status: 403, message: "Pack {name} needs a licence for marketplace template {templateId}; {reason}" },
  LICENSE_PROOF_REQUIRED: { status: 403, message: "Pack {name} needs a licence for marketplace template {templateId}: {reason}. A buyer address alone is not enough: ask POST /api/packs/licence-challenge, sign it with the holding wallet and send buyer and proof" },
  LICENSE_PROOF_INVALID: { status: 403, message: "The licence proof for pack {name} does not hold: {reason}" },
  LICENSE_PROOF_EXPIRED: { status: 403, message: "The licence proof for pack {name} expired at {expiresAt}; ask for a new challenge" },
  LICENSE_PROOF_REPLAYED: { status: 403, message: "The licence challenge {nonce} was already used; ask for a new one" },
  PACK_NOT_LICENSED: { status: 400, message: "Pack {name} is not tied to a marketplace template; it installs without a licence proof" },
  LICENSE_CHECK_UNAVAILABLE: { status: 503, message: "The marketplace chain could not be asked about the licence: {reason}" },
  AGENTS_MARKETPLACE_UNAVAILABLE: { status: 503, message: "The marketplace chain could not be read: {reason}" },
  AGENTS_MARKETPLACE_NOT_CONFIGURED: { status: 409, message: "No marketplace chain is configured: set agents.marketplace (rpcUrl, chainId, addresses) in muster.config.json (docs/marketplace.md)" },
}, {
  // Codes without the prefix AGENTS_ that clients already match: they keep their names (docs/errors.md).
  exempt: {
    AGENT_NOT_FOUND: "DESIGN §14.2 (one code for every feature naming agents); published by the host before it moved here",
    AGENT_NOT_REGISTERED: "published by the chat plugin before the prefix rule; raised by the crew capability for chat and council",
    AGENT_ALREADY_EXISTS: PUBLISHED_BEFORE_PREFIX_RULE,
    AGENT_TEMPLATE_NOT_FOUND: PUBLISHED_BEFORE_PREFIX_RULE,
    AGENT_FILES_WRITE_FAILED: PUBLISHED_BEFORE_PREFIX_RULE,
    AGENT_ORG_FILE_INVALID: PUBLISHED_BEFORE_PREFIX_RULE,
    AGENT_CONFIG_UNCHANGED: PUBLISHED_BEFORE_PREFIX_RULE,
    PACK_NOT_FOUND: PUBLISHED_BEFORE_PREFIX_RULE,
    PACK_ALREADY_INSTALLED: PUBLISHED_BEFORE_PREFIX_RULE,
    PACK_INVALID: PUBLISHED_BEFORE_PREFIX_RULE,
    PACK_AGENT_EXISTS: PUBLISHED_BEFORE_PREFIX_RULE,
    PACK_PATH_OUTSIDE_WORKSPACE: PUBLISHED_BEFORE_PREFIX_RULE,
    PACK_TEMPLATE_NOT_FOUND: PUBLISHED_BEFORE_PREFIX_RULE,
    PACK_INSTALL_FAILED: PUBLISHED_BEFORE_PREFIX_RULE,
    LICENSE_REQUIRED: "named by DESIGN §14.5 (packs)",
    LICENSE_PROOF_REQUIRED: PUBLISHED_BEFORE_PREFIX_RULE,
    LICENSE_PROOF_INVALID: PUBLISHED_BEFORE_PREFIX_RULE,
    LICENSE_PROOF_EXPIRED: PUBLISHED_BEFORE_PREFIX_RULE,
    LICENSE_PROOF_REPLAYED: PUBLISHED_BEFORE_PREFIX_RULE,
    PACK_NOT_LICENSED: PUBLISHED_BEFORE_PREFIX_RULE,
    LICENSE_CHECK_UNAVAILABLE: PUBLISHED_BEFORE_PREFIX_RULE,
  },
});
