/** The agent workspace (`WORKSPACE_DIR`), with path handling that cannot escape it. */
export interface WorkspacePaths {
  /** Absolute, real path of the workspace root. */
  readonly root: string;
  /**
   * Resolves a workspace-relative path to an absolute one. Refuses (400
   * `PATH_OUTSIDE_WORKSPACE`) absolute paths, `..` escapes, NUL bytes and symlinks whose
   * real target lies outside the workspace.
   */
  resolve(relativePath: string): string;
  /** The workspace-relative path (with `/` separators) of an absolute path inside it. */
  relative(absolutePath: string): string;
}
