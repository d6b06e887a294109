// Locating and reading the YAML files of a project board
// (`projects/<project>/board/{tasks,stories,sprints,epics}.yaml`, reference §6.6).
import { constants } from "node:fs";
import { open, realpath, stat } from "node:fs/promises";
import { parseDocument, type Document } from "yaml";
import { hostErrors, isCircular, type WorkspacePaths } from "@muster/plugin";
import { boardErrors } from "../errors.ts";

export const BOARD_KINDS = ["epics", "stories", "sprints", "tasks"] as const;
export type BoardKind = (typeof BOARD_KINDS)[number];

/** Largest board file read. */
export const MAX_BOARD_FILE_BYTES = 4 * 1024 * 1024;

export const boardDir = (project: string) => `projects/${project}/board`;
export const boardFile = (project: string, kind: BoardKind) => `${boardDir(project)}/${kind}.yaml`;

/** The board directory's absolute path; 404 when the project has none (the project id is validated by the route). */
export async function requireBoard(workspace: WorkspacePaths, project: string): Promise<string> {
  const dir = workspace.resolve(boardDir(project));
  const info = await stat(dir).catch(() => null);
  if (!info?.isDirectory()) throw boardErrors.LEGACY_BOARD_PROJECT_NOT_FOUND({ project });
  return dir;
}

export interface BoardFileText {
  /** Real absolute path (symlinks inside the workspace resolved). */
  realPath: string;
  text: string;
  mtimeMs: number;
  size: number;
  mode: number;
}

/** Reads a board file, or returns null when absent. Refuses non-regular, binary and oversized files (422). */
export async function readBoardFile(workspace: WorkspacePaths, rel: string): Promise<BoardFileText | null> {
  const lexical = workspace.resolve(rel);
  let real: string;
  try {
    real = await realpath(lexical);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return null;
    throw error;
  }
  if (!workspace.contains(real)) throw hostErrors.PATH_OUTSIDE_WORKSPACE({}, { details: [{ path: "path", reason: `${JSON.stringify(rel)} leads outside the workspace` }] });
  const handle = await open(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw boardErrors.LEGACY_BOARD_FILE_INVALID({ path: rel, reason: "it is not a regular file" }, { details: { code: "NOT_A_FILE" } });
    if (info.size > MAX_BOARD_FILE_BYTES) {
      throw boardErrors.LEGACY_BOARD_FILE_INVALID({ path: rel, reason: `it is larger than ${MAX_BOARD_FILE_BYTES} bytes` }, { details: { code: "TOO_LARGE", size: info.size } });
    }
    const bytes = await handle.readFile();
    if (bytes.subarray(0, 8000).includes(0)) throw boardErrors.LEGACY_BOARD_FILE_INVALID({ path: rel, reason: "it is a binary file" }, { details: { code: "NOT_TEXT" } });
    return { realPath: real, text: bytes.toString("utf8"), mtimeMs: info.mtimeMs, size: info.size, mode: info.mode & 0o777 };
  } finally {
    await handle.close();
  }
}

/** Parses YAML keeping comments and layout; throws 422 with line and column on a syntax error. */
export function parseBoardYaml(rel: string, text: string): Document {
  const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: true });
  const error = doc.errors[0];
  if (error) {
    const at = error.linePos?.[0];
    throw boardErrors.LEGACY_BOARD_FILE_INVALID(
      { path: rel, reason: `YAML ${error.code}${at ? ` at line ${at.line}, column ${at.col}` : ""}` },
      { details: { code: error.code, line: at?.line ?? null, column: at?.col ?? null } },
    );
  }
  return doc;
}


/** The document as plain data; 422 for alias bombs and self-referencing aliases. */
export function boardData(rel: string, doc: Document): unknown {
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 100 });
  } catch (cause) {
    throw boardErrors.LEGACY_BOARD_FILE_INVALID({ path: rel, reason: (cause as Error).message.split("\n")[0] }, { details: { code: "YAML_TO_JS" }, cause });
  }
  if (isCircular(data)) throw boardErrors.LEGACY_BOARD_FILE_INVALID({ path: rel, reason: "an alias refers to its own ancestor" }, { details: { code: "CIRCULAR_ALIAS" } });
  return data;
}
