// A POSIX-shell-aware scanner for terminal command lines. Without the sandbox it is the
// whole parser (the words become argv; anything a shell would interpret is refused, so
// nothing means something other than what is checked). With the sandbox it finds every
// simple command of the `sh -c` line, including those inside `$(...)` and backticks, so the
// blocklist sees them too.
import { terminalErrors } from "../errors.ts";

export interface Word {
  kind: "word";
  /** The word with quotes and backslashes removed (what a shell passes when nothing expands). */
  text: string;
  /** Shell features a shell would expand in this word (`$VAR`, `$(...)`, a glob, ...), first first. */
  features: string[];
  /** Command lines inside `$(...)` and backticks. */
  substitutions: string[];
}
export interface Operator {
  kind: "operator";
  text: string;
}
export type Token = Word | Operator;

const OPERATORS = ["&&", "||", ";;", "<<-", "<<", ">>", "<&", ">&", "<>", ">|", "|", "&", ";", "<", ">", "(", ")", "\n"];
const REDIRECTIONS = new Set(["<<-", "<<", ">>", "<&", ">&", "<>", ">|", "<", ">"]);
const BLANK = new Set([" ", "\t"]);
/** Characters that end an unquoted word. */
const BREAKS = new Set([" ", "\t", "\n", "|", "&", ";", "<", ">", "(", ")"]);

const invalid = (reason: string) => terminalErrors.TERMINAL_COMMAND_INVALID({ reason });

/** Where the bracketed text opened at `open` (`$(`, `${`, backtick) ends: the index of its closing character. */
function closing(line: string, open: number, opener: string, closer: string): number {
  let depth = 1;
  for (let i = open; i < line.length; i++) {
    const c = line[i]!;
    if (c === "\\") i++;
    else if (c === "'" && closer !== "`") {
      const end = line.indexOf("'", i + 1);
      if (end === -1) break;
      i = end;
    } else if (closer !== "`" && c === opener) depth++;
    else if (c === closer && --depth === 0) return i;
  }
  throw invalid(`unterminated ${closer === "`" ? "backtick" : opener === "(" ? "$(" : "${"}`);
}

/** A `$` at `i` (inside double quotes or not): records the expansion and returns the index of its last character. */
function dollar(line: string, i: number, word: Word): number {
  const next = line[i + 1];
  if (next === "(") {
    const end = closing(line, i + 2, "(", ")");
    word.features.push(line[i + 2] === "(" ? "arithmetic $((...))" : "command substitution $(...)");
    word.substitutions.push(line.slice(i + 2, end));
    return end;
  }
  if (next === "{") {
    word.features.push("variable expansion ${...}");
    return closing(line, i + 2, "{", "}");
  }
  if (next !== undefined && /[A-Za-z0-9_@*#?$!-]/.test(next)) {
    word.features.push("variable expansion $VAR");
    let end = i + 1;
    if (/[A-Za-z_]/.test(next)) while (end + 1 < line.length && /[A-Za-z0-9_]/.test(line[end + 1]!)) end++;
    return end;
  }
  word.text += "$";
  return i;
}

function backtick(line: string, i: number, word: Word): number {
  const end = closing(line, i + 1, "`", "`");
  word.features.push("command substitution `...`");
  word.substitutions.push(line.slice(i + 1, end).replace(/\\([`\\$])/g, "$1"));
  return end;
}

/** Splits a command line into words and operators, the way `sh` would before expanding. */
export function scan(line: string): Token[] {
  const tokens: Token[] = [];
  let word: Word | null = null;
  const flush = () => {
    if (word) tokens.push(word);
    word = null;
  };
  const current = (): Word => (word ??= { kind: "word", text: "", features: [], substitutions: [] });
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === "\\") {
      if (line[i + 1] === "\n") i++; // a line continuation joins the lines
      else if (i + 1 < line.length) current().text += line[++i];
      else throw invalid("a trailing backslash escapes nothing");
      continue;
    }
    if (BLANK.has(c)) {
      flush();
      continue;
    }
    const op = BREAKS.has(c) ? OPERATORS.find((o) => line.startsWith(o, i)) : undefined;
    if (op) {
      flush();
      tokens.push({ kind: "operator", text: op });
      i += op.length - 1;
      continue;
    }
    const starting = word === null;
    const w = current();
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end === -1) throw invalid("unterminated single quote");
      w.text += line.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      i = doubleQuoted(line, i + 1, w);
    } else if (c === "$") {
      i = dollar(line, i, w);
    } else if (c === "`") {
      i = backtick(line, i, w);
    } else {
      if (c === "*" || c === "?" || c === "[") w.features.push(`the glob character ${c}`);
      else if (starting && c === "~") w.features.push("tilde expansion ~");
      else if (starting && c === "#") w.features.push("a comment #");
      else if (starting && (c === "{" || c === "}" || c === "!")) w.features.push(`the reserved word ${c}`);
      w.text += c;
    }
  }
  flush();
  return tokens;
}

/** Reads a double-quoted string from `start` (after the quote); returns the index of the closing quote. */
function doubleQuoted(line: string, start: number, word: Word): number {
  for (let i = start; i < line.length; i++) {
    const c = line[i]!;
    if (c === '"') return i;
    if (c === "\\" && i + 1 < line.length) {
      const n = line[i + 1]!;
      if (n === "\n") i++;
      else if ("$`\"\\".includes(n)) word.text += line[++i];
      else word.text += c;
    } else if (c === "$") i = dollar(line, i, word);
    else if (c === "`") i = backtick(line, i, word);
    else word.text += c;
  }
  throw invalid("unterminated double quote");
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/**
 * Unsandboxed mode: the argv of a command line that uses no shell syntax at all. Throws 400
 * `TERMINAL_SHELL_SYNTAX` naming the first feature a shell would have interpreted.
 */
export function toArgv(line: string): string[] {
  const tokens = scan(line);
  const argv: string[] = [];
  for (const token of tokens) {
    if (token.kind === "operator") {
      const feature = token.text === "\n" ? "a newline" : REDIRECTIONS.has(token.text) ? `the redirection ${token.text}` : `the operator ${token.text}`;
      throw terminalErrors.TERMINAL_SHELL_SYNTAX({ feature });
    }
    if (token.features.length > 0) throw terminalErrors.TERMINAL_SHELL_SYNTAX({ feature: token.features[0]! });
    if (argv.length === 0 && ASSIGNMENT.test(token.text)) throw terminalErrors.TERMINAL_SHELL_SYNTAX({ feature: "a variable assignment" });
    argv.push(token.text);
  }
  if (argv.length === 0) throw invalid("it contains no command");
  return argv;
}

/** Words a shell reads as syntax where a command name could stand; the command follows them. */
const RESERVED = new Set(["if", "then", "else", "elif", "fi", "do", "done", "while", "until", "for", "case", "esac", "in", "!", "{", "}", "time"]);

/** A simple command of a sandboxed line: its words, and whether its name is only known after expansion. */
export interface SimpleCommand {
  argv: string[];
  /** The command name contains an expansion, so its real name cannot be known before running. */
  dynamicName: boolean;
}

/**
 * Sandboxed mode: every simple command of an `sh -c` line (leading assignments, reserved
 * words and redirections skipped), including those inside substitutions, at most `depth` deep.
 */
export function simpleCommands(line: string, depth = 8): SimpleCommand[] {
  if (depth === 0) throw invalid("substitutions are nested too deeply");
  const found: SimpleCommand[] = [];
  let words: Word[] = [];
  let redirectTarget = false;
  const end = () => {
    if (words.length > 0) found.push({ argv: words.map((w) => w.text), dynamicName: words[0]!.features.length > 0 });
    words = [];
  };
  for (const token of scan(line)) {
    if (token.kind === "operator") {
      if (REDIRECTIONS.has(token.text)) redirectTarget = true;
      else end();
      continue;
    }
    for (const inner of token.substitutions) found.push(...simpleCommands(inner, depth - 1));
    if (redirectTarget) {
      redirectTarget = false;
      continue;
    }
    if (words.length === 0 && (ASSIGNMENT.test(token.text) || RESERVED.has(token.text))) continue;
    words.push(token);
  }
  end();
  return found;
}
