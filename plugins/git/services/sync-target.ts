// Where an approved push or pull goes: the remote's effective URL after every rewrite, resolved
// when the approval is requested (and shown), and again at execution, where git is given that
// URL explicitly. A URL that git would rewrite once more, or a transport that runs a helper
// program, is refused, so the URL the human saw is the one git connects to.
import { gitErrors } from "../errors.ts";
import type { ConfigEntry } from "./config-safety.ts";
import { withoutCredentials } from "./repository-status.ts";
import { runGit } from "./run-git.ts";

export interface SyncTarget {
  /** What git is given (credentials in it kept). */
  url: string;
  /** What the human sees and the approval binds: the URL without credentials. */
  shown: string;
}

const TRANSPORTS = /^(https?|ssh|git|file|git\+ssh|ssh\+git):\/\//i;

/** A path, `host:path`, or one of git's own transports; never `<helper>::<address>` nor an unknown scheme (both run `git-remote-<name>`). */
function runsNoHelper(url: string): boolean {
  if (url.startsWith("-")) return false;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) return TRANSPORTS.test(url);
  return !url.includes("::");
}

/**
 * The setting that would send git elsewhere when given `url` explicitly: an `insteadOf` (or,
 * for a push, `pushInsteadOf`) prefix of it, or a `remote.<url>.*` section (git reads an explicit
 * URL that names a configured remote as that remote, pushurl and all).
 */
export function redirectionOf(entries: ConfigEntry[], url: string, operation: "push" | "pull"): ConfigEntry | undefined {
  return entries.find((entry) => {
    if (entry.scope === "command") return false;
    const rewrite = /^url\..+\.(insteadof|pushinsteadof)$/i.exec(entry.key);
    if (rewrite) return (operation === "push" || rewrite[1]!.toLowerCase() === "insteadof") && url.startsWith(entry.value ?? "");
    return /^remote\./i.test(entry.key) && entry.key.slice("remote.".length, entry.key.lastIndexOf(".")) === url;
  });
}

/** The URL a push (its push URL) or a pull (its fetch URL) of `remote` goes to, every rewrite applied; coded errors when Muster would not use it. */
export async function resolveSyncTarget(repo: string, operation: "push" | "pull", remote: string, entries: ConfigEntry[], timeoutMs: number): Promise<SyncTarget> {
  const listed = await runGit(repo, ["remote", "get-url", ...(operation === "push" ? ["--push", "--all"] : []), "--", remote], { timeoutMs });
  const urls = listed.code === 0 ? listed.stdout.split("\n").filter(Boolean) : [];
  if (urls.length === 0) throw gitErrors.GIT_REMOTE_UNKNOWN({ remote });
  if (urls.length > 1) throw gitErrors.GIT_REMOTE_MULTIPLE_URLS({ remote, count: urls.length });
  const url = urls[0]!;
  const shown = withoutCredentials(url);
  if (!runsNoHelper(url)) throw gitErrors.GIT_REMOTE_URL_UNSUPPORTED({ remote, url: shown });
  const redirect = redirectionOf(entries, url, operation);
  if (redirect) throw gitErrors.GIT_REMOTE_REDIRECTED({ key: redirect.key, origin: redirect.origin.replace(/^file:/, ""), url: shown, operation });
  return { url, shown };
}
