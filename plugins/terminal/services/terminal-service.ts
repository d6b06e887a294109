import { clip, createRateLimiter, type EventBus, type Logger, type MusterError } from "@muster/plugin";
import type { ActivityLog } from "../../activities/tokens.ts";
import type { ChildProcessEnvironment, VaultSecretReader } from "../../vault/tokens.ts";
import type { TerminalConfig } from "../config.ts";
import { terminalErrors } from "../errors.ts";
import type { TerminalRequest, TerminalResult, TerminalRunner } from "../tokens.ts";
import { assertAllowed, assertNoRepositoryCommands, assertNotDisguised, locateProgram } from "./blocklist.ts";
import { simpleCommands, toArgv } from "./command-line.ts";
import { sanitizeOutput } from "./output.ts";
import { assertNoSensitivePaths } from "./sensitive-paths.ts";
import { createPidsCgroup, type PidsCgroup } from "./process-cap.ts";
import { runProcess } from "./run-process.ts";
import { bwrapArgv, detectSandbox, SANDBOX_PATH, type SandboxMode } from "./sandbox.ts";
import { secretVariables } from "./secret-environment.ts";
import { resolveWorkingDirectory, type MusterData } from "./working-directory.ts";

/** Output kept per command (DESIGN §6). */
export const MAX_OUTPUT_BYTES = 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 30_000;
/** Commands running at once (DESIGN §14.8). */
const CONCURRENT = 2;

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
  /** The trial run started by {@link start}; commands wait for it. */
  private detection: Promise<SandboxMode> | null = null;
  private chosen: SandboxMode | null = null;

  constructor(deps: TerminalDeps) {
    this.deps = deps;
    this.limiter = createRateLimiter({ feature: "terminal", concurrent: CONCURRENT, perMinute: deps.config.perMinute });
  }

  /**
   * Starts detecting bubblewrap (a real trial run) without holding up the host's start: every
   * plugin's start-up would otherwise wait for two process spawns. The first command waits for it.
   */
  start(): void {
    this.detection = this.detect();
  }

  /** Waits for a detection still running at shutdown, so no trial process outlives the host. */
  async stop(): Promise<void> {
    await this.detection;
  }

  private async detect(): Promise<SandboxMode> {
    const { config, logger } = this.deps;
    const chosen: SandboxMode = config.sandbox === "none" ? { sandbox: "none", reason: 'terminal.sandbox is "none"' } : await detectSandbox(config);
    if (chosen.sandbox === "bwrap") {
      const cap = chosen.pidsCgroupRoot ? "pids cgroup" : process.getuid?.() === 0 ? "none (root, no writable pids cgroup)" : "RLIMIT_NPROC";
      logger.info({ sandbox: "bwrap", processCap: cap }, "terminal commands run in a bubblewrap sandbox");
    } else if (config.sandbox === "bwrap") logger.error({ reason: chosen.reason }, "terminal.sandbox is bwrap but bubblewrap cannot run; terminal commands are refused");
    else logger.warn({ reason: chosen.reason }, "terminal commands run without a sandbox (no shell, blocklist only)");
    this.chosen = chosen;
    return chosen;
  }

  mode(): { sandbox: "bwrap" | "none"; reason: string | null } {
    const chosen = this.chosen ?? { sandbox: "none", reason: "bubblewrap detection has not finished" };
    return chosen.sandbox === "bwrap" ? { sandbox: "bwrap", reason: null } : { sandbox: "none", reason: chosen.reason };
  }

  async run(request: TerminalRequest): Promise<TerminalResult> {
    const { config } = this.deps;
    if (request.agentId !== null && !config.allowAgents) throw terminalErrors.TERMINAL_AGENT_FORBIDDEN();
    const mode = await this.detection;
    if (!mode || (mode.sandbox === "none" && config.sandbox === "bwrap")) {
      throw terminalErrors.TERMINAL_SANDBOX_UNAVAILABLE({ reason: mode?.reason ?? "the terminal has not started" });
    }
    const cwd = resolveWorkingDirectory(request.cwd, this.deps.data);
    const baseEnv = mode.sandbox === "bwrap" ? { PATH: SANDBOX_PATH, HOME: cwd, TMPDIR: "/tmp", LANG: "C.UTF-8", TERM: "dumb" } : this.deps.environment.childEnv(process.env, { injected: false });
    let planned: Planned;
    try {
      planned = mode.sandbox === "bwrap" ? this.checkSandboxed(request.command, cwd) : this.checkPlain(request.command, cwd, baseEnv.PATH ?? "");
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
  private checkPlain(command: string, cwd: string, path: string): Planned {
    const argv = toArgv(command);
    const located = locateProgram(argv[0]!, cwd, path);
    assertAllowed(argv, located);
    assertNoRepositoryCommands(argv, located);
    if (located) assertNotDisguised(located);
    assertNoSensitivePaths(argv, cwd, this.deps.data);
    return { argv, executable: located ?? undefined };
  }

  /** `sh -c` in the sandbox: every simple command whose name is known before running is checked. */
  private checkSandboxed(command: string, cwd: string): Planned {
    for (const simple of simpleCommands(command)) {
      if (!simple.dynamicName) assertAllowed(simple.argv, locateProgram(simple.argv[0]!, cwd, SANDBOX_PATH));
    }
    return { argv: bwrapArgv(command, cwd, this.deps.config, this.deps.data) };
  }

  private async execute(planned: Planned, mode: SandboxMode, cwd: string, env: Record<string, string>, request: TerminalRequest): Promise<TerminalResult> {
    let cgroup: PidsCgroup | null = null;
    let program = planned.argv;
    if (mode.sandbox === "bwrap" && mode.pidsCgroupRoot) {
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
      return { output, exitCode: ran.exitCode, durationMs: ran.durationMs, truncated: ran.truncated, timedOut: ran.timedOut, sandbox: mode.sandbox };
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
