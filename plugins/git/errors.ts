import { defineErrors } from "@muster/plugin";

/** The git plugin's error catalogue (docs/git.md). */
export const gitErrors = defineErrors("git", {
  GIT_NOT_A_REPOSITORY: { status: 404, message: "{path} is not the top directory of a git repository (set git.repoPath in muster.config.json)" },
  GIT_NOTHING_TO_COMMIT: { status: 409, message: "There is nothing to commit{scope}" },
  GIT_PATH_OUTSIDE_REPOSITORY: { status: 400, message: "{file} is outside the repository (or inside .git); only files of the working tree can be committed" },
  GIT_PATHSPEC_UNMATCHED: { status: 400, message: "{file} matches no file in the working tree or the index" },
  GIT_COMMIT_FAILED: { status: 409, message: "git refused the commit: {reason}" },
  GIT_REMOTE_UNKNOWN: { status: 400, message: "There is no remote named {remote} in the repository" },
  GIT_NO_REMOTE: { status: 409, message: "The repository has no remote to {operation} (add one, or name it in remote)" },
  GIT_BRANCH_INVALID: { status: 400, message: "{branch} is not a valid branch name" },
  GIT_BRANCH_UNKNOWN: { status: 400, message: "There is no local branch named {branch} to push" },
  GIT_DETACHED_HEAD: { status: 409, message: "HEAD is detached; name the branch to {operation}" },
  GIT_UNSAFE_CONFIG: { status: 409, message: "The repository's configuration sets {key} ({origin}), which would make git run a program (or read a file) of the repository's choosing; Muster runs no git command on this repository until that setting is removed" },
  GIT_REMOTE_URL_UNSUPPORTED: { status: 409, message: "Remote {remote} resolves to {url}, a remote helper or transport Muster does not run (a path, file://, ssh://, git://, http(s):// or host:path)" },
  GIT_REMOTE_MULTIPLE_URLS: { status: 409, message: "Remote {remote} pushes to {count} URLs; Muster pushes to one approved URL (keep one remote.{remote}.pushurl)" },
  GIT_REMOTE_REDIRECTED: { status: 409, message: "{key} ({origin}) rewrites {url}, so git would {operation} somewhere other than that URL; nothing was run" },
  GIT_REMOTE_CHANGED: { status: 409, message: "The approved {operation} was to {approved}, but remote {remote} now resolves to {now}; nothing was run. Request it again to review the new URL" },
  GIT_BRANCH_MOVED: { status: 409, message: "The approved push was of {branch} at {approved}, but the branch has moved to {now} since; nothing was pushed. Request it again to review the new commits" },
  GIT_FAILED: { status: 500, message: "git {command} failed; the server log has its message" },
});
