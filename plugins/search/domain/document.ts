import { parseAllDocuments } from "yaml";
import { categoryOf, type Category } from "./categories.ts";
import { fileTypeOf } from "./file-types.ts";

/** What goes into the minisearch index for one file. */
export interface SearchDocument {
  /** The workspace-relative path (also the minisearch id). */
  id: string;
  title: string;
  /** The path without extension, split into words, so file names are searchable. */
  name: string;
  content: string;
  category: Category;
}

export interface ParsedFile {
  document: SearchDocument;
  type: "markdown" | "yaml";
  /** Why the YAML or front matter could not be parsed; the text is indexed anyway. */
  problem?: string;
}

/** Why a file's bytes are not indexed at all. */
export type Unreadable = "binary" | "invalid-utf8";

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
const MAX_TITLE = 200;

/** Decodes file bytes as text, refusing binaries that only carry a markdown name. */
export function decodeText(bytes: Uint8Array): string | Unreadable {
  if (bytes.includes(0)) return "binary";
  try {
    return utf8.decode(bytes);
  } catch {
    return "invalid-utf8";
  }
}

function titleFromName(path: string): string {
  const base = path.slice(path.lastIndexOf("/") + 1).replace(/\.[^.]+$/, "");
  return base.replace(/[-_]+/g, " ").trim() || base;
}

function stringField(value: unknown, ...keys: string[]): string | undefined {
  if (!value || typeof value !== "object" || Array.isArray(value)) return undefined;
  for (const key of keys) {
    const v = (value as Record<string, unknown>)[key];
    if (typeof v === "string" && v.trim()) return v.trim();
  }
  return undefined;
}

/**
 * Parses YAML text that may hold several documents (`---` separated, common in manifests);
 * returns the first document's value, or throws the first syntax error.
 */
function parseYaml(text: string): unknown {
  const documents = parseAllDocuments(text);
  const list = Array.isArray(documents) ? documents : [];
  const error = list.flatMap((d) => d.errors)[0];
  if (error) throw error;
  return list[0]?.toJS({ maxAliasCount: 100 });
}

function problemOf(error: unknown): string {
  return String((error as Error)?.message ?? error).split("\n")[0]!.slice(0, 200);
}

const FRONT_MATTER = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;
const HEADING = /^#{1,6}[ \t]+(.+?)[ \t#]*$/m;

/** Builds the index document of a file's text; never throws on malformed content. */
export function parseFile(path: string, text: string): ParsedFile {
  const type = fileTypeOf(path);
  let title: string | undefined;
  let problem: string | undefined;
  if (type === "yaml") {
    try {
      title = stringField(parseYaml(text), "title", "name");
    } catch (error) {
      problem = `malformed YAML: ${problemOf(error)}`;
    }
  } else {
    const fm = FRONT_MATTER.exec(text);
    if (fm) {
      try {
        title = stringField(parseYaml(fm[1]!), "title");
      } catch (error) {
        problem = `malformed front matter: ${problemOf(error)}`;
      }
    }
    title ??= HEADING.exec(fm ? text.slice(fm[0].length) : text)?.[1]?.trim();
  }
  title = Array.from(title || titleFromName(path)).slice(0, MAX_TITLE).join("");
  const name = path.replace(/\.[^./]+$/, "").replace(/[/_.-]+/g, " ");
  return { type, problem, document: { id: path, title, name, content: text, category: categoryOf(path) } };
}
