import { token } from "@muster/plugin";
import type { ApprovalRecord } from "../approvals/tokens.ts";
import type { RepositoryStatus } from "./services/repository-status.ts";
import type { SyncPayload } from "./services/sync-action.ts";
import type { ConfigEntry } from "./services/config-safety.ts";

export type { RepositoryStatus, SyncPayload };

export interface CommitRequest {
  message: string;
  /** Repository-relative files to commit; all changes when absent. */
  files?: string[];
}

export interface SyncRequest {
  operation: "push" | "pull";
  remote?: string;
  branch?: string;
  requestedBy: string;
}

/** The configured repository: status, commits, and push/pull requested through the approval gate. */
export interface GitRepository {
  /** The configured repository's top directory (real path); 404 `GIT_NOT_A_REPOSITORY` when it is not one. */
  repository(): Promise<string>;
  /** The repository and its own configuration, refused (409 `GIT_UNSAFE_CONFIG`, naming the key) while that configuration names a program. */
  vetted(): Promise<{ repo: string; config: ConfigEntry[] }>;
  status(): Promise<RepositoryStatus>;
  commit(request: CommitRequest): Promise<{ hash: string; message: string }>;
  /** Creates the pending approval; nothing reaches the remote until a human approves. */
  requestSync(request: SyncRequest): Promise<ApprovalRecord>;
}

/** Runs an approved push or pull (the gate's executor). Internal to the git plugin: everyone else goes through the gate. */
export interface GitSyncRunner {
  sync(payload: SyncPayload): Promise<string>;
}

export const GIT = token<GitRepository>("git.repository");
/** Internal to the git plugin. */
export const GIT_SYNC = token<GitSyncRunner>("git.sync");
