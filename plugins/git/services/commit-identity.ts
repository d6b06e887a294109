// Commits need an author. Git's global files are not read any more (run-git.ts), so a
// repository that names no user.name/user.email gets them, and only them, from the user's own
// global file, read as plain values (includes not followed).
import { homedir } from "node:os";
import { join } from "node:path";
import type { ConfigEntry } from "./config-safety.ts";
import { runGit } from "./run-git.ts";

const IDENTITY_KEYS = ["user.name", "user.email"];

/** `name=value` settings for the identity keys the repository lacks, from the user's global git config. */
export async function identitySettings(repo: string, entries: ConfigEntry[], timeoutMs: number): Promise<string[]> {
  const missing = IDENTITY_KEYS.filter((key) => !entries.some((entry) => entry.key.toLowerCase() === key));
  // Git's order: the XDG file first, ~/.gitconfig after it (the later one wins).
  const files = [join(process.env.XDG_CONFIG_HOME || join(homedir(), ".config"), "git", "config"), join(homedir(), ".gitconfig")];
  const settings: string[] = [];
  for (const key of missing) {
    let value = "";
    for (const file of files) {
      const out = await runGit(repo, ["config", "--file", file, "--get", key], { timeoutMs });
      if (out.code === 0 && out.stdout.trim()) value = out.stdout.trim();
    }
    if (value) settings.push(`${key}=${value}`);
  }
  return settings;
}
