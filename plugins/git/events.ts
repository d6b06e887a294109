/** A commit made through `POST /api/git`. */
export interface GitCommitEvent {
  hash: string;
  message: string;
  branch: string;
}

/** Events the git plugin publishes (public: forwarded to SSE clients). */
export type GitEvents = { "git.commit.created": GitCommitEvent };

declare module "@muster/plugin" {
  interface MusterEvents extends GitEvents {}
}
