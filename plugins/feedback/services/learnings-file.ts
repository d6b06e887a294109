// The agent's learnings file `company/knowledge_base/feedback/<agentId>-learnings.md`
// (reference §6.7 format), appended to synchronously so the append can run inside the
// SQLite transaction that stores the entry: both happen, or neither.
import { closeSync, constants, fstatSync, mkdirSync, openSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import type { WorkspacePaths } from "@muster/plugin";
import type { FeedbackRow } from "../entities/feedback-entry.ts";
import { feedbackErrors } from "../errors.ts";

export const FEEDBACK_DIR = "company/knowledge_base/feedback";
export type FeedbackType = FeedbackRow["type"];

const HEADINGS: Record<FeedbackType, string> = {
  correction: "❌ Correction",
  praise: "✅ Praise",
  pattern: "🔄 Pattern",
  rule: "📏 Rule",
};

/** Workspace-relative path of an agent's learnings file (the agent id is validated by the route). */
export const learningsPath = (agentId: string) => `${FEEDBACK_DIR}/${agentId}-learnings.md`;

/** One entry as it is written: the stored row without the files it was applied to. */
export type LearningEntry = Omit<FeedbackRow, "appliedTo">;

/** The markdown section for one entry. */
export function formatEntry(entry: LearningEntry): string {
  const lines = [`## ${HEADINGS[entry.type]} — ${entry.createdAt.slice(0, 10)}`, ""];
  if (entry.taskId) lines.push(`Task: ${entry.taskId}`, "");
  lines.push(entry.content.trimEnd(), "");
  if (entry.context) lines.push(`Context: ${entry.context.trimEnd()}`, "");
  lines.push(`<!-- feedback ${entry.id} -->`, "", "");
  return lines.join("\n");
}

/**
 * Appends the entry (with the `# Learning Log — <agent>` header when the file is new) in
 * one write to a file opened for appending; a symlink or non-regular file is refused.
 * Returns the workspace-relative path written.
 */
export function appendLearning(workspace: WorkspacePaths, entry: LearningEntry): string {
  const rel = learningsPath(entry.agentId);
  const absolute = workspace.resolve(rel);
  mkdirSync(dirname(absolute), { recursive: true });
  // resolve() again now the directories exist, so a symlinked directory is checked too.
  workspace.resolve(rel);
  let fd: number;
  try {
    fd = openSync(absolute, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK, 0o644);
  } catch (cause) {
    throw feedbackErrors.FEEDBACK_FILE_UNWRITABLE({ path: rel }, { cause });
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw feedbackErrors.FEEDBACK_FILE_UNWRITABLE({ path: rel });
    const header = stat.size === 0 ? `# Learning Log — ${entry.agentId}\n\n` : "";
    writeSync(fd, header + formatEntry(entry));
  } finally {
    closeSync(fd);
  }
  return rel;
}
