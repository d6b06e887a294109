// The Terminal page (`/console/terminal`): run one command in the workspace (sandboxed as the
// server decides), see its output as text, or the refusal with its code; the tab's history.
import { html, muster, mountComponent, isMusterApiError, useResource, useState, useStylesheet, Badge, ErrorNote, Field, Form, PageHeader, Section } from "@muster/console";
import type { Muster } from "@muster/console";
import { HistoryList, loadHistory, remember, type HistoryItem } from "./terminal-history.ts";

type RunResult = Awaited<ReturnType<Muster["postTerminal"]>>;

function SandboxLine() {
  const status = useResource(() => muster.getTerminal());
  if (status.error) return html`<${ErrorNote} error=${status.error} />`;
  const s = status.data;
  if (!s) return null;
  return html`<p class="meta">Sandbox: <${Badge} tone=${s.mode === "bwrap" ? "ok" : s.mode === "off" ? "bad" : "warn"}>${s.mode}<//> · ${s.reason}${s.programs ? ` · allowed programs: ${s.programs.join(", ")}` : ""}</p>`;
}

function Output({ result }: { result: RunResult }) {
  return html`<div class="terminal-result" role="status">
    <p class="meta">Exit code <strong>${result.exitCode}</strong> · ${result.durationMs} ms · sandbox ${result.sandbox}${result.timedOut ? " · timed out" : ""}${result.truncated ? " · output truncated" : ""}</p>
    <pre class="output" aria-label="Command output">${result.output || "(no output)"}</pre>
  </div>`;
}

function TerminalPage() {
  useStylesheet("/dashboard/plugins/terminal/terminal.css");
  const [command, setCommand] = useState("");
  const [cwd, setCwd] = useState("");
  const [result, setResult] = useState<RunResult | undefined>(undefined);
  const [history, setHistory] = useState<HistoryItem[]>(loadHistory);
  const run = async () => {
    setResult(undefined);
    const item = { command, cwd, at: new Date().toISOString() };
    try {
      const answer = await muster.postTerminal({ body: { command, ...(cwd ? { cwd } : {}) } });
      setResult(answer);
      setHistory((now) => remember(now, { ...item, outcome: answer.exitCode }));
    } catch (error) {
      setHistory((now) => remember(now, { ...item, outcome: isMusterApiError(error) ? error.code : "failed" }));
      throw error;
    }
  };
  return html`<div class="page terminal" data-page="terminal">
    <${PageHeader} title="Terminal" description="One command at a time in the workspace; no shell." />
    <div class="stack">
      <${Section} title="Run a command">
        <${SandboxLine} />
        <${Form} label="Run a command" submitLabel="Run command" onSubmit=${run} resetOnSuccess=${false}>
          <${Field} label="Command" name="command" required=${true} value=${command} onInput=${setCommand} autocomplete="off" />
          <${Field} label="Working directory (optional)" name="cwd" value=${cwd} onInput=${setCwd} hint="Relative to the workspace." />
        <//>
        ${result ? html`<${Output} result=${result} />` : null}
      <//>
      <${Section} title="History">
        <${HistoryList} items=${history} onReuse=${(item: HistoryItem) => { setCommand(item.command); setCwd(item.cwd); }} />
      <//>
    </div>
  </div>`;
}

export default mountComponent(TerminalPage);
