// Starts a real `hardhat node` on 127.0.0.1 at a free port as a child process, and stops it.
import { spawn, type ChildProcess } from "node:child_process";
import { freePort } from "../../../scripts/lib/free-port.ts";
import { HARDHAT_CLI, ROOT } from "../../contracts/support/build-lock.ts";

export interface HardhatNode {
  url: string;
  port: number;
  stop(): Promise<void>;
}


/** `chainType: "op"` starts Hardhat's OP-stack simulation (`hardhat node --chain-type op`). */
export async function startHardhatNode(timeoutMs = 60_000, options: { chainType?: "l1" | "op" } = {}): Promise<HardhatNode> {
  const port = await freePort();
  const chainType = options.chainType ? ["--chain-type", options.chainType] : [];
  const child: ChildProcess = spawn(process.execPath, [HARDHAT_CLI, "node", "--hostname", "127.0.0.1", "--port", String(port), ...chainType], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true, // its own process group, so stop() takes down anything it started
  });
  const kill = () => {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch { /* already gone */ }
  };
  process.once("exit", kill);
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      kill();
      reject(new Error(`hardhat node did not start within ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk;
      if (output.includes("Started HTTP and WebSocket JSON-RPC server")) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`hardhat node exited with ${code}:\n${output}`));
    });
  });
  child.stdout!.resume();
  child.stderr!.resume();
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        kill();
        process.removeListener("exit", kill);
      }),
  };
}
