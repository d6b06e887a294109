import { approvalSchema } from "../../approvals/tokens.ts";
import { z } from "@muster/plugin";

/** DESIGN §14.5: agent ids the factory and packs create. */
export const newAgentId = z.string().regex(/^[a-z][a-z0-9_-]{0,62}$/, "must match ^[a-z][a-z0-9_-]{0,62}$");
/** Any agent id as the gateway or the organisation file may carry it. */
export const agentId = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/, "must be an agent id: letters, digits, _ . -, at most 100");
const text = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .refine((v) => v.trim().length > 0 && !/[\u0000-\u001f\u007f]/.test(v), "must not be blank or hold control characters");
const toolName = z.string().regex(/^[A-Za-z0-9*][A-Za-z0-9_.:*-]{0,99}$/, "must be a tool name (letters, digits, _ . : - *)");

export const agentParams = z.strictObject({ id: agentId });
export const emptyQuery = z.strictObject({});

const tools = z.object({ allow: z.array(z.string()), deny: z.array(z.string()) });
export const agentRecord = z.object({
  id: z.string(),
  name: z.string(),
  role: z.string().nullable(),
  tier: z.number().int().nullable(),
  squad: z.string().nullable(),
  model: z.string().nullable(),
  status: z.string(),
  emoji: z.string().nullable(),
  reportsTo: z.string().nullable(),
  skills: z.array(z.string()),
  tools,
  sandbox: z.enum(["off", "container"]),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** With several gateways (DESIGN §16): the gateway the agent's calls go to (absent while no gateway lists it). */
  gateway: z.string().optional(),
});
export const listAgentsResponse = z.object({ ok: z.literal(true), agents: z.array(agentRecord) });
export const agentResponse = z.object({ ok: z.literal(true), agent: agentRecord });

/** The pending Approval record a route requested (as `GET /api/approvals/{id}` shows it), as every route that creates one answers. */
const approvalRef = approvalSchema;

export const configureBody = z
  .strictObject({
    tools: z.strictObject({ allow: z.array(toolName).max(200), deny: z.array(toolName).max(200) }).optional(),
    sandbox: z.enum(["off", "container"]).optional(),
  })
  .refine((b) => b.tools !== undefined || b.sandbox !== undefined, "give tools, sandbox or both");
export const configureResponse = z.object({ ok: z.literal(true), agent: agentRecord, requested: z.object({ tools, sandbox: z.enum(["off", "container"]) }), approval: approvalRef });

const personaTemplate = z.object({ id: z.string(), name: z.string(), tier: z.string(), path: z.string() });
export const templatesResponse = z.object({ ok: z.literal(true), templates: z.array(personaTemplate) });

export const factoryBody = z.strictObject({
  templateId: text(200),
  name: text(100),
  agentId: newAgentId,
  model: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.:/@-]{0,199}$/, "must be a model name (letters, digits, _ . : / @ -)"),
  emoji: z.string().max(16).nullable().optional(),
  squad: newAgentId.nullable().optional(),
  reportsTo: agentId.nullable().optional(),
  role: z.string().regex(/^[a-z][a-z0-9_]{0,99}$/, "must be a snake_case role").optional(),
  skills: z.array(z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/, "must be a skill name")).max(100).optional(),
});
export const registerMissingResponse = z.object({ ok: z.literal(true), agents: z.array(z.string()), approval: approvalRef });
export const factoryResponse = z.object({ ok: z.literal(true), agent: agentRecord, files: z.array(z.string()), approval: approvalRef });

const healthEntry = z.object({
  id: z.string(),
  name: z.string(),
  state: z.enum(["active", "idle", "stalled", "stuck", "offline"]),
  lastActivityMs: z.number().int().nullable(),
  idleMinutes: z.number().nullable(),
  model: z.string().nullable(),
  sessionCount: z.number().int(),
  registered: z.boolean().nullable(),
  /** With several gateways: the gateway the agent is on (its state decides `offline`). */
  gateway: z.string().optional(),
});
const gatewayStatus = z.object({ state: z.string(), url: z.string().nullable(), since: z.string(), lastError: z.string().optional() });
export const healthResponse = z.object({ ok: z.literal(true), gateway: gatewayStatus, agents: z.array(healthEntry) });

export const coverageQuery = z.strictObject({ agent: agentId });
export const coverageResponse = z.object({
  ok: z.literal(true),
  target: z.object({ id: z.string(), role: z.string().nullable(), tier: z.number().nullable(), squad: z.string().nullable(), skills: z.array(z.string()) }),
  candidates: z.array(z.object({ id: z.string(), role: z.string().nullable(), skillOverlap: z.number().int(), sameTier: z.boolean(), sameSquad: z.boolean(), sharedSkills: z.array(z.string()) })),
});

const packSummary = z.object({ name: z.string(), version: z.string(), description: z.string(), agents: z.number().int(), file: z.string(), installed: z.boolean(), templateId: z.string().nullable() });
export const packsResponse = z.object({ ok: z.literal(true), packs: z.array(packSummary), errors: z.array(z.object({ file: z.string(), reason: z.string() })) });
const packName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/, "must be a pack name");
const evmAddress = z.string().regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x-prefixed 20-byte address");
const hex32 = z.string().regex(/^0x[0-9a-fA-F]{64}$/, "must be 0x and 32 bytes of hex");
/** A signed licence challenge: the nonce and expiry as signed, and the EIP-712 signature (65 bytes, or longer from a contract wallet). */
const licenceProof = z.strictObject({
  nonce: hex32,
  expiresAt: z.number().int().positive(),
  signature: z.string().regex(/^0x([0-9a-fA-F]{2}){1,4096}$/, "must be 0x-prefixed hex"),
});
export const installPackBody = z.strictObject({
  name: packName,
  /** The address holding the licence; for a pack tied to a template, only together with `proof`. */
  buyer: evmAddress.optional(),
  proof: licenceProof.optional(),
});
export const licenceChallengeBody = z.strictObject({ name: packName, holder: evmAddress });
export const licenceChallengeResponse = z.object({
  ok: z.literal(true),
  challenge: z.object({
    nonce: hex32,
    expiresAt: z.number().int(),
    typedData: z.object({
      domain: z.object({ name: z.string(), version: z.string(), verifyingContract: evmAddress, salt: hex32 }),
      types: z.object({ PackLicenceProof: z.array(z.object({ name: z.string(), type: z.string() })) }),
      primaryType: z.literal("PackLicenceProof"),
      message: z.object({ pack: z.string(), templateId: z.string(), holder: evmAddress, nonce: hex32, expiresAt: z.string() }),
    }),
  }),
});
export const installPackResponse = z.object({
  ok: z.literal(true),
  pack: packSummary,
  agents: z.array(agentRecord),
  directories: z.array(z.string()),
  orgEntries: z.array(z.string()),
  files: z.array(z.string()),
  approval: approvalRef,
});

export const heartbeatBody = z.strictObject({ agentId, nudge: z.boolean().default(false) });
export const heartbeatResponse = z.object({
  ok: z.literal(true),
  agent: healthEntry,
  checkedAt: z.string(),
  nudged: z.boolean(),
  reason: z.string().optional(),
  runId: z.string().optional(),
});
