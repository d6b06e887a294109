import { readdir, readFile } from "node:fs/promises";
import type { ApprovalGate, Database, GateRequestResult, WorkspacePaths } from "@muster/plugin";
import { defineStore, summarizeDetails, zodIssueDetails } from "@muster/plugin";
import type { AgentsConfig } from "../config.ts";
import { PackInstall, type PackInstallRow } from "../entities/pack-install.ts";
import { agentsErrors } from "../errors.ts";
import type { AgentRecord } from "../tokens.ts";
import type { AgentDirectoryService } from "./agent-directory.ts";
import { agentFiles } from "./agent-files.ts";
import type { CrewWriter } from "./crew-writer.ts";
import { REGISTER_ACTION, type RegisterPayload } from "./gated-actions.ts";
import { LicenceChallenges } from "./licence-challenges.ts";
import { assertLicence, type LicenceProofInput } from "./licence-check.ts";
import { packManifest, type PackManifest, type PackSummary } from "./pack-manifest.ts";
import { findPersonaTemplate, templateFile } from "./persona-templates.ts";
import type { OrgEntry } from "./org-file.ts";

const packInstalls = defineStore(PackInstall, { key: "name", mapRows: false });

const MAX_PACK_BYTES = 256 * 1024;

/** `POST /api/packs/licence-challenge`: the EIP-712 typed data the holder signs (numbers as decimal strings). */
export interface LicenceChallengeResult {
  nonce: `0x${string}`;
  expiresAt: number;
  typedData: {
    domain: { name: string; version: string; verifyingContract: `0x${string}`; salt: `0x${string}` };
    types: { PackLicenceProof: { name: string; type: string }[] };
    primaryType: "PackLicenceProof";
    message: { pack: string; templateId: string; holder: `0x${string}`; nonce: `0x${string}`; expiresAt: string };
  };
}

export interface PackInstallResult {
  pack: PackSummary;
  agents: AgentRecord[];
  directories: string[];
  orgEntries: string[];
  files: string[];
  approval: GateRequestResult;
}

/**
 * Squad packs (`packs/*.json`): listing (bad files reported, never fatal) and installing a
 * pack's agents, directories and organisation entries all or nothing, then one pending
 * `agents.register` approval for the gateway.
 */
export class PackService {
  private readonly deps: {
    workspace: WorkspacePaths;
    db: () => Database;
    directory: AgentDirectoryService;
    writer: CrewWriter;
    gate: ApprovalGate;
    config: AgentsConfig;
    requestedBy: string;
  };
  private readonly challenges: LicenceChallenges;
  constructor(deps: PackService["deps"]) {
    this.deps = deps;
    this.challenges = new LicenceChallenges(deps.db);
  }

  /** Issues a single-use challenge for `holder` to prove it may install the licensed pack `name`. */
  async licenceChallenge(name: string, holder: string): Promise<LicenceChallengeResult> {
    const found = (await this.readAll()).find((r) => "manifest" in r && r.manifest.name === name);
    if (!found || !("manifest" in found)) throw agentsErrors.PACK_NOT_FOUND({ name });
    if (found.manifest.templateId === undefined) throw agentsErrors.PACK_NOT_LICENSED({ name });
    const marketplace = this.deps.config.marketplace;
    if (!marketplace) throw agentsErrors.LICENSE_CHECK_UNAVAILABLE({ reason: "no marketplace chain is configured (agents.marketplace)" });
    const { packLicenceProofDomain, packLicenceProofTypes } = await import("@muster/sdk");
    const issued = await this.challenges.issue(name, String(found.manifest.templateId), holder, marketplace.challengeTtlSeconds);
    const domain = packLicenceProofDomain(await this.challenges.instanceId(), marketplace.addresses.licenseToken as `0x${string}`) as LicenceChallengeResult["typedData"]["domain"];
    return {
      nonce: issued.nonce,
      expiresAt: issued.expiresAt,
      typedData: {
        domain,
        types: { PackLicenceProof: packLicenceProofTypes.PackLicenceProof.map((f) => ({ ...f })) },
        primaryType: "PackLicenceProof",
        message: { pack: name, templateId: issued.templateId, holder: holder as `0x${string}`, nonce: issued.nonce, expiresAt: String(issued.expiresAt) },
      },
    };
  }

  async list(): Promise<{ packs: PackSummary[]; errors: { file: string; reason: string }[] }> {
    const installed = new Set((await this.installs()).map((r) => r.name));
    const packs: PackSummary[] = [];
    const errors: { file: string; reason: string }[] = [];
    for (const read of await this.readAll()) {
      if ("reason" in read) errors.push({ file: read.file, reason: read.reason });
      else packs.push(summary(read.manifest, read.file, installed.has(read.manifest.name)));
    }
    return { packs, errors };
  }

  install(name: string, buyer: string | undefined, proof?: LicenceProofInput): Promise<PackInstallResult> {
    return this.deps.writer.exclusive(async () => {
      const found = (await this.readAll()).find((r) => "manifest" in r && r.manifest.name === name);
      if (!found || !("manifest" in found)) throw agentsErrors.PACK_NOT_FOUND({ name });
      const { manifest, file } = found;
      if ((await this.installs()).some((r) => r.name === name)) throw agentsErrors.PACK_ALREADY_INSTALLED({ name });
      const ids = manifest.agents.map((a) => a.id);
      const dup = ids.find((id, i) => ids.indexOf(id) !== i);
      if (dup) throw agentsErrors.PACK_INVALID({ name, reason: `it names agent ${dup} twice` });
      const paths = [...manifest.directories, ...manifest.agents.map((a) => a.workspace ?? `agents/${a.id}`)];
      for (const path of paths) {
        try {
          this.deps.workspace.resolve(path);
        } catch {
          throw agentsErrors.PACK_PATH_OUTSIDE_WORKSPACE({ name, path });
        }
      }
      const personas = new Map<string, string>();
      for (const a of manifest.agents) {
        if (!a.persona) continue;
        const template = await findPersonaTemplate(this.deps.workspace, a.persona);
        if (!template) throw agentsErrors.PACK_TEMPLATE_NOT_FOUND({ name, template: a.persona });
        personas.set(a.id, await readFile(templateFile(this.deps.workspace, template), "utf8"));
      }
      const taken = await this.deps.writer.takenBy(ids);
      if (taken) throw agentsErrors.PACK_AGENT_EXISTS({ name, agentId: taken.id });
      if (manifest.templateId !== undefined) await assertLicence(this.deps.config.marketplace, this.challenges, { pack: name, templateId: String(manifest.templateId), buyer, proof });

      const entries: OrgEntry[] = manifest.agents.map((a) => ({
        id: a.id,
        name: a.name,
        tier: a.tier,
        role: a.role,
        model: a.model,
        emoji: a.emoji ?? null,
        squad: manifest.squad?.id ?? null,
        reports_to: a.reportsTo ?? null,
        manages: [],
        skills: a.skills,
      }));
      const files = entries.flatMap((entry, i) => {
        const a = manifest.agents[i]!;
        const persona = personas.get(a.id) ?? `# ${a.name}\n\n${a.description ?? `${a.role} of the ${manifest.squad?.name ?? manifest.name} squad.`}`;
        const base = a.workspace ?? `agents/${a.id}`;
        return agentFiles(entry, persona, `Installed from pack: ${manifest.name} ${manifest.version}`).map((f) => ({ ...f, path: f.path.replace(`agents/${a.id}`, base) }));
      });
      const written = await this.deps.writer.apply(
        { entries, files, directories: manifest.directories, ...(manifest.squad ? { squad: { id: manifest.squad.id, name: manifest.squad.name, chief: manifest.squad.chief ?? null, domain: manifest.squad.domain ?? null } } : {}) },
        (cause) => agentsErrors.PACK_INSTALL_FAILED({ name }, { cause }),
      );
      let approval: GateRequestResult;
      try {
        const payload: RegisterPayload = {
          agents: manifest.agents.map((a) => ({ agentId: a.id, name: a.name, model: a.model, emoji: a.emoji ?? null, workspace: this.deps.workspace.resolve(a.workspace ?? `agents/${a.id}`) })),
        };
        approval = await this.deps.gate.request(REGISTER_ACTION, payload, {
          requestedBy: this.deps.requestedBy,
          title: `Register the ${manifest.name} pack's agents with OpenClaw`,
          context: `Pack ${manifest.name} ${manifest.version} (${file}) installed ${ids.join(", ")}; approving adds them to the gateway (agents.create).`,
        });
        await packInstalls.on(this.deps.db).insert({ name: manifest.name, version: manifest.version, agents: JSON.stringify(ids), installedAt: new Date().toISOString() });
      } catch (error) {
        await written.undo();
        throw error;
      }
      const agents = (await Promise.all(ids.map((id) => this.deps.directory.get(id)))).filter((a): a is AgentRecord => a !== null);
      return { pack: summary(manifest, file, true), agents, directories: manifest.directories, orgEntries: ids, files: written.files, approval };
    });
  }

  private installs(): Promise<PackInstallRow[]> {
    return packInstalls.on(this.deps.db).list();
  }

  /** Every `packs/*.json`, parsed and checked; a bad one carries its reason instead. */
  private async readAll(): Promise<({ file: string; manifest: PackManifest } | { file: string; reason: string })[]> {
    let dir: string;
    try {
      dir = this.deps.workspace.resolve("packs");
    } catch {
      return [];
    }
    const names = (await readdir(dir, { withFileTypes: true }).catch(() => [])).filter((f) => f.isFile() && f.name.endsWith(".json")).map((f) => f.name).sort();
    const out: ({ file: string; manifest: PackManifest } | { file: string; reason: string })[] = [];
    for (const name of names) {
      const file = `packs/${name}`;
      try {
        const text = await readFile(this.deps.workspace.resolve(file), "utf8");
        if (Buffer.byteLength(text) > MAX_PACK_BYTES) throw new Error(`larger than ${MAX_PACK_BYTES} bytes`);
        const parsed = packManifest.safeParse(JSON.parse(text));
        if (!parsed.success) out.push({ file, reason: summarizeDetails(zodIssueDetails(parsed.error, undefined, "pack")) });
        else out.push({ file, manifest: parsed.data });
      } catch (error) {
        out.push({ file, reason: error instanceof SyntaxError ? `not JSON: ${error.message}` : (error as Error).message });
      }
    }
    return out;
  }
}

function summary(m: PackManifest, file: string, installed: boolean): PackSummary {
  return { name: m.name, version: m.version, description: m.description, agents: m.agents.length, file, installed, templateId: m.templateId === undefined ? null : String(m.templateId) };
}
