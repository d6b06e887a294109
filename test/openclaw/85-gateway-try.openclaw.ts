// `npm run gateway:try` (issue 27 item 4), as a newcomer uses it: it starts its own pinned
// OpenClaw with the fake model and prints GATEWAY_URL/GATEWAY_TOKEN; Muster started with
// them chats with a scaffolded crew agent (aide); Ctrl-C (SIGINT) stops the gateway, exits 0
// and leaves nothing listening. One case for the whole command: a gateway takes 15 s to
// 2 min and about 1 GB, so this file starts exactly one (beside the suite's own).
import { spawn } from "node:child_process";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { withTestHost } from "../helpers/start-test-host.ts";
import { waitUntil } from "../helpers/wait.ts";
import { boundedTest, within } from "./support/bounded.ts";
import { waitForGatewayState } from "./support/muster.ts";
import { withField } from "@muster/plugin/testing";

const test = suite("gateway:try");
const ROOT = new URL("../..", import.meta.url).pathname;
const READY_MS = 5 * 60_000;

boundedTest(test, "prints the GATEWAY_URL/GATEWAY_TOKEN with which Muster chats with aide; Ctrl-C stops the gateway and exits 0", READY_MS + 4 * 60_000, async () => {
  // What `npm run gateway:try -- --port 0` runs (port 0: a free one, 18789 may be taken here).
  const child = spawn(process.execPath, ["--conditions=source", "--import", "tsx", "scripts/gateway-try.ts", "--port", "0"], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  try {
    await waitUntil(() => /^GATEWAY_TOKEN=\S+$/m.test(stdout) || child.exitCode !== null, { timeoutMs: READY_MS, intervalMs: 200, label: "gateway:try's GATEWAY_TOKEN line" });
    assert.is(child.exitCode, null, `gateway:try exited before it was ready:\n${stderr}`);
    const url = /^GATEWAY_URL=(\S+)$/m.exec(stdout)![1]!;
    const token = /^GATEWAY_TOKEN=(\S+)$/m.exec(stdout)![1]!;
    assert.match(stdout, `GATEWAY_URL=${url} GATEWAY_TOKEN=${token} npm start`, "the command to start Muster is printed");

    await withTestHost({ config: { gatewayUrl: url, gatewayToken: token } }, async (h) => {
      await waitForGatewayState(h, "connected", 60_000);
      const { status, body } = await h.json("/api/chat", { method: "POST", body: { message: "Hello", agentId: "aide" } });
      assert.is(status, 200, JSON.stringify(body));
      assert.is(withField(body, "reply").reply.agentId, "aide");
    });

    child.kill("SIGINT");
    const code = await within(90_000, "gateway:try stopping after SIGINT", () => exited);
    assert.is(code, 0, stderr);
    assert.match(stderr, "stopped; its state is removed");
    const httpUrl = url.replace(/^ws:/, "http:");
    const answered = await fetch(`${httpUrl}/readyz`, { signal: AbortSignal.timeout(2_000) }).then(() => true, () => false);
    assert.not.ok(answered, "nothing listens on the gateway's port any more");
  } finally {
    if (child.exitCode === null) {
      child.kill("SIGTERM");
      await within(60_000, "gateway:try stopping", () => exited).catch(() => child.kill("SIGKILL"));
    }
  }
});

test.run();
