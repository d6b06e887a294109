// The Git page (`/console/git`): the workspace repository's branch, changes and recent
// commits; commit the changes; request a push or a pull, which runs only once a human approves
// it (the approval is shown with its link). Refusals (GIT_UNSAFE_CONFIG…) show their code.
import { html, muster, mountComponent, useResource, useState, useStylesheet, ActionButton, ApprovalLink, DataTable, ErrorNote, Field, Form, PageHeader, Section, Time } from "@muster/console";
import type { Muster } from "@muster/console";

type Status = Awaited<ReturnType<Muster["getGit"]>>;
type Change = Status["changedFiles"][number];
type Commit = Status["commits"][number];

function Summary({ status }: { status: Status }) {
  return html`<dl class="facts">
    <dt>Branch</dt><dd>${status.branch}</dd>
    <dt>Upstream</dt><dd>${status.upstream ?? "none"}${status.upstream ? ` · ${status.ahead} ahead, ${status.behind} behind` : ""}</dd>
    <dt>Working tree</dt><dd>${status.dirty ? `${status.changedFiles.length} changed file${status.changedFiles.length === 1 ? "" : "s"}` : "clean"}</dd>
    <dt>Last commit</dt><dd>${status.lastCommitDate ? html`<${Time} when=${status.lastCommitDate} />` : "none"}</dd>
  </dl>`;
}

function SyncButtons({ onRequested }: { onRequested: (approval: Record<string, unknown>) => void }) {
  const request = async (operation: "push" | "pull") => {
    const result = await muster.postGit({ body: { operation } });
    if ("approval" in result) onRequested(result.approval);
  };
  return html`<div class="toolbar">
    <${ActionButton} label="Request push" onAction=${() => request("push")} />
    <${ActionButton} label="Request pull" onAction=${() => request("pull")} />
  </div>`;
}

function GitPage() {
  useStylesheet("/dashboard/plugins/git/git.css");
  const status = useResource(() => muster.getGit(), { events: ["git.*", "terminal.command.executed"] });
  const [approval, setApproval] = useState<Record<string, unknown> | undefined>(undefined);
  const [committed, setCommitted] = useState<Commit | undefined>(undefined);
  const commit = async (fields: FormData) => {
    const result = await muster.postGit({ body: { operation: "commit", message: String(fields.get("message") ?? "") } });
    if ("commit" in result) setCommitted(result.commit);
    void status.reload();
  };
  const s = status.data;
  return html`<div class="page git" data-page="git">
    <${PageHeader} title="Git" description="The workspace repository: changes, commits, push and pull through the approval step." />
    <${ErrorNote} error=${status.error} />
    <div class="stack">
      <div class="grid-2">
        <${Section} title="Status" actions=${html`<${ActionButton} label="Refresh status" onAction=${() => status.reload()} />`}>
          ${s ? html`<${Summary} status=${s} />` : null}
          <${DataTable} caption="Changed files" rows=${s?.changedFiles} rowKey=${(c: Change) => c.path}
            columns=${[{ label: "File", key: "path" }, { label: "Change", key: "status" }]} empty="No changes." />
        <//>
        <${Section} title="Commit and sync">
          <${Form} label="Commit all changes" submitLabel="Commit changes" onSubmit=${commit}>
            <${Field} label="Commit message" name="message" required=${true} />
          <//>
          ${committed ? html`<p role="status" class="git-done">Committed <code>${committed.hash.slice(0, 10)}</code>: ${committed.message}</p>` : null}
          <${SyncButtons} onRequested=${setApproval} />
          <${ApprovalLink} approval=${approval} what="The request was made." />
        <//>
      </div>
      <${Section} title="Recent commits">
        <${DataTable} caption="Recent commits" captionHidden=${true} rows=${s?.commits} rowKey=${(c: Commit) => c.hash}
          columns=${[{ label: "Commit", render: (c: Commit) => html`<code>${c.hash.slice(0, 10)}</code>` }, { label: "Message", key: "message" }]} empty="No commits yet." />
      <//>
    </div>
  </div>`;
}

export default mountComponent(GitPage);
