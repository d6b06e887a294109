import { defineErrors } from "@muster/plugin";

/** The git plugin's error catalogue (docs/git.md). */
export const gitErrors = defineErrors({
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
  GIT_FAILED: { status: 500, message: "git {command} failed; the server log has its message" },
});
