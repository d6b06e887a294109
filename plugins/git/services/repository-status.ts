// The spec's Repository status record, read from `git status --porcelain=v2` and `git log`.

export interface ChangedFile {
  path: string;
  /** Two-letter porcelain code: index then working tree (`M.`, `.M`, `??`, `UU`, ...). */
  status: string;
}

export interface RepositoryStatus {
  branch: string;
  commits: { hash: string; message: string }[];
  dirty: boolean;
  changedFiles: ChangedFile[];
  /** Changed paths in the index. */
  staged: string[];
  /** Changed paths in the working tree, not staged. */
  modified: string[];
  untracked: string[];
  conflicted: string[];
  ahead: number;
  behind: number;
  /** The upstream's remote URL (credentials removed); null without an upstream. */
  remote: string | null;
  /** The upstream branch (`origin/main`), or null. */
  upstream: string | null;
  /** Committer date of the last commit, ISO 8601 with its numeric offset; null before the first commit. */
  lastCommitDate: string | null;
}

/** Listed paths per kind; a larger change set is counted in `changedFiles` order but not listed in full. */
export const LISTED_FILES_MAX = 1000;

export interface BranchInfo {
  head: string;
  upstream: string | null;
  ahead: number;
  behind: number;
}

/** Parses `git status --porcelain=v2 --branch -z` into the branch header and the changed files. */
export function parsePorcelain(text: string): { branch: BranchInfo; files: ChangedFile[] } {
  const branch: BranchInfo = { head: "HEAD", upstream: null, ahead: 0, behind: 0 };
  const files: ChangedFile[] = [];
  const entries = text.split("\0");
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!;
    if (entry.startsWith("# branch.head ")) branch.head = entry.slice(14) === "(detached)" ? "HEAD" : entry.slice(14);
    else if (entry.startsWith("# branch.upstream ")) branch.upstream = entry.slice(18);
    else if (entry.startsWith("# branch.ab ")) {
      const [, ahead, behind] = /^# branch\.ab \+(\d+) -(\d+)$/.exec(entry) ?? [];
      branch.ahead = Number(ahead ?? 0);
      branch.behind = Number(behind ?? 0);
    } else if (entry.startsWith("1 ")) files.push({ status: entry.slice(2, 4), path: entry.split(" ").slice(8).join(" ") });
    else if (entry.startsWith("2 ")) {
      files.push({ status: entry.slice(2, 4), path: entry.split(" ").slice(9).join(" ") });
      i++; // the rename's original path follows as its own entry
    } else if (entry.startsWith("u ")) files.push({ status: entry.slice(2, 4), path: entry.split(" ").slice(10).join(" ") });
    else if (entry.startsWith("? ")) files.push({ status: "??", path: entry.slice(2) });
  }
  return { branch, files };
}

/** Splits changed files into the spec's lists (each capped at {@link LISTED_FILES_MAX}). */
export function classify(files: ChangedFile[]): Pick<RepositoryStatus, "changedFiles" | "staged" | "modified" | "untracked" | "conflicted"> {
  const pick = (test: (f: ChangedFile) => boolean) => files.filter(test).slice(0, LISTED_FILES_MAX).map((f) => f.path);
  const conflicted = (f: ChangedFile) => f.status.includes("U") || f.status === "AA" || f.status === "DD";
  return {
    changedFiles: files.slice(0, LISTED_FILES_MAX),
    staged: pick((f) => f.status !== "??" && !conflicted(f) && f.status[0] !== "."),
    modified: pick((f) => f.status !== "??" && !conflicted(f) && f.status[1] !== "."),
    untracked: pick((f) => f.status === "??"),
    conflicted: pick(conflicted),
  };
}

/** A remote URL without user names or passwords (`https://user:token@host/x` → `https://host/x`). */
export function withoutCredentials(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, "$1");
}

/** Parses `git log --format=%H%x1f%s%x1f%cI%x1e`. */
export function parseLog(text: string): { hash: string; message: string; date: string }[] {
  return text
    .split("\x1e")
    .map((record) => record.trim())
    .filter(Boolean)
    .map((record) => {
      const [hash = "", message = "", date = ""] = record.split("\x1f");
      return { hash, message, date };
    });
}
