import { whileLocked, type Database, type WorkspacePaths } from "@muster/plugin";
import { agentsErrors } from "../errors.ts";
import type { AgentDirectoryService } from "./agent-directory.ts";
import { addToOrg, ORG_FILE, orgAgentIds, readOrgDocument, type OrgEntry } from "./org-file.ts";
import { StagedFiles } from "./staged-files.ts";

export interface CrewChange {
  entries: OrgEntry[];
  /** Files to write, relative to the workspace (already checked to stay inside it). */
  files: { path: string; content: string }[];
  /** Extra directories to create, relative to the workspace. */
  directories: string[];
  squad?: { id: string; name: string; chief: string | null; domain: string | null };
}

/**
 * Adds agents to the workspace and the organisation file all or nothing (StagedFiles), one
 * change at a time: the id checks, the org file's read-modify-write and the renames of one
 * change never interleave with another's, in this process (a queue) nor, in team mode, on
 * another instance sharing the workspace (the database's lock).
 */
export class CrewWriter {
  private queue: Promise<unknown> = Promise.resolve();
  private readonly deps: { workspace: WorkspacePaths; directory: AgentDirectoryService; db: () => Database };
  constructor(deps: { workspace: WorkspacePaths; directory: AgentDirectoryService; db: () => Database }) {
    this.deps = deps;
  }

  /** Runs `fn` after every earlier change has finished, here and on every instance. */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const locked = () => whileLocked(this.deps.db(), "agents:crew-change", fn);
    const run = this.queue.then(locked, locked);
    this.queue = run.catch(() => {});
    return run;
  }

  /** Where an id is already taken (table, organisation file, gateway), or null when it is free. Call inside `exclusive`. */
  async takenBy(ids: string[]): Promise<{ id: string; where: string } | null> {
    const doc = await readOrgDocument(this.deps.workspace.resolve(ORG_FILE));
    const inOrg = orgAgentIds(doc);
    for (const id of ids) {
      if (inOrg.has(id)) return { id, where: "in the organisation file" };
      if (await this.deps.directory.get(id)) return { id, where: "in the agents table" };
      if (await this.deps.directory.isKnown(id)) return { id, where: "in the gateway's agent list" };
    }
    return null;
  }

  /**
   * Writes the change (call inside `exclusive`); returns the undo for a step after it that
   * fails (the approval request). Every error leaves the workspace as it was.
   */
  async apply(change: CrewChange, failure: (error: unknown) => Error): Promise<{ undo: () => Promise<void>; files: string[] }> {
    const staged = new StagedFiles();
    try {
      for (const dir of change.directories) await staged.mkdir(this.deps.workspace.resolve(dir));
      for (const file of change.files) await staged.write(this.deps.workspace.resolve(file.path), file.content);
      const orgPath = this.deps.workspace.resolve(ORG_FILE);
      const text = addToOrg(await readOrgDocument(orgPath), change.entries, change.squad);
      // The organisation file goes last: once it names the agents, their files are in place.
      await staged.write(orgPath, text);
      await staged.commit();
    } catch (error) {
      await staged.rollback();
      if ((error as { code?: unknown }).code === "AGENT_ORG_FILE_INVALID") throw error;
      throw failure(error);
    }
    await this.deps.directory.sync();
    return {
      files: [...change.files.map((f) => f.path), ORG_FILE],
      undo: async () => {
        await staged.rollback();
        await this.deps.directory.sync();
      },
    };
  }
}

export const filesWriteFailed = (cause: unknown) => agentsErrors.AGENT_FILES_WRITE_FAILED({}, { cause });
