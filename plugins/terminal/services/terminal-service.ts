import { clip, createRateLimiter, type EventBus, type Logger, type MusterError } from "@muster/plugin";
import type { ActivityLog } from "../../activities/tokens.ts";
import type { ChildProcessEnvironment, VaultSecretReader } from "../../vault/tokens.ts";
import type { TerminalConfig } from "../config.ts";
import { terminalErrors } from "../errors.ts";
import type { TerminalRequest, TerminalResult, TerminalRunner, TerminalStatus } from "../tokens.ts";
import { ALLOWED_PROGRAMS, assertOptionsAllowed, systemProgram } from "./allowlist.ts";
import { assertAllowed, assertNoRepositoryCommands, locateProgram } from "./blocklist.ts";
import { simpleCommands, toArgv } from "./command-line.ts";
import { sanitizeOutput } from "./output.ts";
import { assertPathsAllowed } from "./path-rules.ts";
import { createPidsCgroup, type PidsCgroup } from "./process-cap.ts";
import { runProcess } from "./run-process.ts";
import { bwrapArgv, detectSandbox, sandboxDirectory, SANDBOX_PATH, type SandboxMode } from "./sandbox.ts";
import { secretVariables } from "./secret-environment.ts";
import { resolveWorkingDirectory, type MusterData } from "./working-directory.ts";

/** Output kept per command (DESIGN §6). */
export const MAX_OUTPUT_BYTES = 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 30_000;
/** Commands running at once (DESIGN §14.8). */
const CONCURRENT = 2;

/**
 * The mode chosen at start: bubblewrap; `none`, the opt-in unsandboxed allowlist mode; or
 * `off`, no usable bubblewrap and no opt-in (DESIGN §6), where every command is refused.
 */
type ActiveMode = { mode: "bwrap"; reason: string; pidsCgroupRoot: string | null } | { mode: "none" | "off"; reason: string };

function toActive(found: SandboxMode): ActiveMode {
  return found.sandbox === "bwrap"
    ? { mode: "bwrap", reason: "bubblewrap passed its trial run at start", pidsCgroupRoot: found.pidsCgroupRoot }
    : { mode: "off", reason: found.reason };
}

/** What will be spawned: argv, and for an unsandboxed command the exact file the blocklist checked. */
interface Planned {
  argv: string[];
  executable?: string;
}

export interface TerminalDeps {
  config: TerminalConfig;
  logger: Logger;
  events: EventBus;
  activities: ActivityLog;
  vault: VaultSecretReader;
  environment: ChildProcessEnvironment;
  owner: string;
  /** Muster's data directory: no command works in it and, sandboxed, none sees it (the workspace excepted). */
  data: MusterData;
}

/** `POST /api/terminal`: checks, then runs one command sandboxed or as a plain argv (docs/terminal.md). */
export class TerminalService implements TerminalRunner {
  private readonly deps: TerminalDeps;
  private readonly limiter;
  /** The trial run, once started (after the host serves, or by the first command); commands wait for it. */
  private detection: Promise<ActiveMode> | null = null;
  private started = false;

  constructor(deps: TerminalDeps) {
    this.deps = deps;
    this.limiter = createRateLimiter({ feature: "terminal", concurrent: CONCURRENT, perMinute: deps.config.perMinute });
  }

  /**
   * Ready to run commands. Detecting bubblewrap (a real trial run: two process spawns, each
   * ~15-20 ms of the main thread) starts with {@link warmUp} once the host serves, or with
   * the first command or status read if one comes sooner; either waits for it.
   */
  start(): void {
    this.started = true;
  }

  /** Starts the detection now (the host's `onServing`), so the first command finds it done. */
  warmUp(): void {
    void this.sandboxMode();
  }

  private sandboxMode(): Promise<ActiveMode> {
    if (!this.started) return Promise.resolve({ mode: "off", reason: "the terminal has not started" });
    return (this.detection ??= this.detect());
  }

  /** Waits for a detection still running at shutdown, so no trial process outlives the host. */
  async stop(): Promise<void> {
    await this.detection;
  }

  private async detect(): Promise<ActiveMode> {
    const { config, logger } = this.deps;
    const chosen: ActiveMode =
      config.sandbox === "none" ? { mode: "none", reason: 'terminal.sandbox is "none" in muster.config.json: no sandbox, only the allowlisted programs run' } : toActive(await detectSandbox(config));
    if (chosen.mode === "bwrap") {
      const cap = chosen.pidsCgroupRoot ? "pids cgroup" : process.getuid?.() === 0 ? "none (root, no writable pids cgroup)" : "RLIMIT_NPROC";
      logger.info({ sandbox: "bwrap", processCap: cap }, "terminal commands run in a bubblewrap sandbox");
    } else if (chosen.mode === "off") logger.warn({ reason: chosen.reason }, "terminal commands are off: bubblewrap cannot run (install it, or opt in with terminal.sandbox \"none\")");
    else logger.warn({ reason: chosen.reason }, "terminal commands run without a sandbox (no shell, allowlisted programs only)");
    return chosen;
  }

  async status(): Promise<TerminalStatus> {
    const chosen = await this.sandboxMode();
    return {
      mode: chosen.mode,
      reason: chosen.reason,
      configured: this.deps.config.sandbox,
      allowAgents: this.deps.config.allowAgents,
      programs: chosen.mode === "none" ? Object.keys(ALLOWED_PROGRAMS).sort() : null,
    };
  }

  async run(request: TerminalRequest): Promise<TerminalResult> {
    const { config } = this.deps;
    if (request.agentId !== null && !config.allowAgents) throw terminalErrors.TERMINAL_AGENT_FORBIDDEN();
    const mode = await this.sandboxMode();
    if (mode.mode === "off") throw terminalErrors.TERMINAL_SANDBOX_UNAVAILABLE({ reason: mode.reason });
    const cwd = resolveWorkingDirectory(request.cwd, this.deps.data);
    // The client's previous request may have saved or injected a secret through another
    // instance of a team: the vault's view as of now (nothing to wait for on SQLite).
    // A reload that fails leaves the view as it was (it reloads every 2 s): not a reason to refuse the command.
    await this.deps.vault.current().catch(() => undefined);
    // Variables injected with POST /api/vault/inject reach every terminal command, in both modes
    // (docs/vault.md); Muster's own credentials never do.
    const baseEnv =
      mode.mode === "bwrap"
        ? { ...this.deps.environment.childEnv({}), PATH: SANDBOX_PATH, HOME: sandboxDirectory(cwd), TMPDIR: "/tmp", LANG: "C.UTF-8", TERM: "dumb" }
        : { ...this.deps.environment.childEnv(process.env), PATH: SANDBOX_PATH };
    let planned: Planned;
    try {
      planned = mode.mode === "bwrap" ? this.checkSandboxed(request.command, cwd) : this.checkPlain(request.command, cwd);
    } catch (error) {
      if (["TERMINAL_COMMAND_BLOCKED", "TERMINAL_PATH_FORBIDDEN"].includes((error as MusterError).code)) this.audit(request, cwd, "terminal.command.blocked", (error as MusterError).message);
      throw error;
    }
    const env = { ...baseEnv, ...secretVariables(request.secrets ?? {}, this.deps.vault) };
    const result = await this.limiter.run(() => this.execute(planned, mode, cwd, env, request), { signal: request.signal });
    this.report(request, cwd, result);
    return result;
  }

  /**
   * No shell: the command must be one program with literal arguments, and an allowed one. The
   * file checked is the file executed (no second PATH lookup that a change in between could redirect).
   */
  private checkPlain(command: string, cwd: string): Planned {
    const argv = toArgv(command);
    // The spec's blocklist first (its codes and reasons), then the allowlist it cannot replace.
    const located = locateProgram(argv[0]!, cwd, SANDBOX_PATH);
    assertAllowed(argv, located);
    assertNoRepositoryCommands(argv, located);
    const program = systemProgram(argv[0]!, cwd);
    assertOptionsAllowed(program.name, program.rule, argv);
    assertPathsAllowed(argv, cwd, this.deps.data, program.rule);
    return { argv: [program.name, ...argv.slice(1)], executable: program.file };
  }

  /** `sh -c` in the sandbox: every simple command whose name is known before running is checked. */
  private checkSandboxed(command: string, cwd: string): Planned {
    for (const simple of simpleCommands(command)) {
      if (!simple.dynamicName) assertAllowed(simple.argv, locateProgram(simple.argv[0]!, cwd, SANDBOX_PATH));
    }
    return { argv: bwrapArgv(command, cwd, this.deps.config, this.deps.data) };
  }

  private async execute(planned: Planned, mode: ActiveMode, cwd: string, env: Record<string, string>, request: TerminalRequest): Promise<TerminalResult> {
    let cgroup: PidsCgroup | null = null;
    let program = planned.argv;
    if (mode.mode === "bwrap" && mode.pidsCgroupRoot) {
      cgroup = createPidsCgroup(mode.pidsCgroupRoot, this.deps.config.maxProcesses);
      // A fixed script (no request text in it) that enters the cgroup before bwrap forks anything.
      program = ["/bin/sh", "-c", 'echo $$ > "$0" && exec "$@"', cgroup.procsFile, ...planned.argv];
    }
    try {
      const timeoutMs = request.timeoutMs ?? DEFAULT_TIMEOUT_MS;
      const ran = await runProcess(program, { cwd, env, executable: cgroup ? undefined : planned.executable }, { timeoutMs, maxOutputBytes: MAX_OUTPUT_BYTES, signal: request.signal });
      const redact = (text: string) => this.deps.vault.redact(text);
      // Redacted before and after cleaning: a secret printed with control characters inside it is caught either way.
      const output = redact(sanitizeOutput(redact(ran.output.toString("utf8"))));
      return { output, exitCode: ran.exitCode, durationMs: ran.durationMs, truncated: ran.truncated, timedOut: ran.timedOut, sandbox: mode.mode === "bwrap" ? "bwrap" : "none" };
    } finally {
      await cgroup?.release();
    }
  }

  private audit(request: TerminalRequest, cwd: string, action: string, details: string): void {
    // Both redacted: a refusal's reason quotes part of the command line, which may hold a secret value.
    const command = clip(this.deps.vault.redact(request.command), 500);
    this.deps.activities.log({ agentId: request.agentId ?? this.deps.owner, action, target: cwd, details: `${this.deps.vault.redact(details)}\n$ ${command}` });
  }

  private report(request: TerminalRequest, cwd: string, result: TerminalResult): void {
    const how = result.timedOut ? "timed out" : result.truncated ? "output cap reached" : `exit ${result.exitCode}`;
    this.audit(request, cwd, "terminal.command", `${how} in ${result.durationMs} ms (sandbox: ${result.sandbox})`);
    this.deps.events.publish(
      "terminal.command.executed",
      { agentId: request.agentId, cwd, exitCode: result.exitCode, durationMs: result.durationMs, timedOut: result.timedOut, truncated: result.truncated, sandbox: result.sandbox },
      { public: true },
    );
  }
}
