// Turns fetched or posted bytes into the markdown stored as a skill.
import { skillsErrors } from "../errors.ts";

/** Strips an HTML page down to its text (script/style removed, tags to line breaks). */
export function htmlToText(html: string): string {
  return html
    .replace(/<(script|style|noscript|template)\b[\s\S]*?<\/\1\s*>/gi, "")
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(/<[^>]*>/g, "\n")
    .replace(/&nbsp;/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&")
    .split("\n")
    .map((line) => line.trimEnd())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

const TEXT_TYPES = /^(text\/|application\/(markdown|x-markdown|yaml|x-yaml|json)\b)/i;

/** Decodes fetched bytes as UTF-8 text; refuses binary and non-text content types. */
export function decodeFetched(body: Buffer, contentType: string): string {
  const type = contentType.split(";")[0]!.trim();
  if (type && !TEXT_TYPES.test(type)) throw skillsErrors.SKILLS_CONTENT_NOT_TEXT({ reason: `content type ${type}` });
  if (body.subarray(0, 8000).includes(0)) throw skillsErrors.SKILLS_CONTENT_NOT_TEXT({ reason: "it holds binary data" });
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(body);
  } catch {
    throw skillsErrors.SKILLS_CONTENT_NOT_TEXT({ reason: "it is not valid UTF-8" });
  }
  return /^text\/html$/i.test(type) || /^\s*<(!doctype html|html)\b/i.test(text) ? htmlToText(text) : text;
}

/**
 * The stored markdown: content that starts with a heading or YAML front matter is kept
 * as is; anything else gets the reference's header (`# Skill — <name>`, source, date).
 */
export function skillMarkdown(name: string, content: string, source: string, now: Date): string {
  const body = content.replace(/^\uFEFF/, "");
  if (/^\s*#/.test(body) || body.startsWith("---\n") || body.startsWith("---\r\n")) return body.endsWith("\n") ? body : `${body}\n`;
  return `# Skill — ${name}\n\n**Source:** ${source}\n**Imported:** ${now.toISOString()}\n\n${body.trim()}\n`;
}
