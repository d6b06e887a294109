// Shared pieces of the publishing suites: a host with the publishing plugin pointed at the
// local platform fakes, vault secrets, deciding approvals and waiting on the outbox.
import * as assert from "uvu/assert";
import type { PluginDefinition } from "@muster/plugin";
import { builtInPlugins } from "../../../plugins/built-in.ts";
import { publishingPlugin } from "../../../plugins/publishing/index.ts";
import { startTestHost, type StartOptions, type TestHost } from "../../helpers/start-test-host.ts";
import { scaled } from "../../helpers/time-scale.ts";
import { waitUntil } from "../../helpers/wait.ts";
import { decideApproval, type Approval, type ApprovalDecision } from "@muster/plugin/testing";
import type { ApiBody } from "@muster/plugin/testing";

export const VAULT_KEY = "publishing test passphrase";

/** The built-ins plus publishing (once publishing is a built-in, it is not listed twice). */
export const plugins: PluginDefinition[] = builtInPlugins.some((p) => p.id === "publishing") ? builtInPlugins : [...builtInPlugins, publishingPlugin];

export interface FakeUrls {
  linkedin?: string;
  x?: string;
}

/** Host options: publishing's base URLs at the fakes, short timeouts and backoff, a vault key. */
export function publishingOptions(urls: FakeUrls, publishing: Record<string, unknown> = {}, extra: StartOptions = {}): StartOptions {
  return {
    plugins,
    ...extra,
    config: {
      vaultKey: VAULT_KEY,
      pluginConfig: {
        publishing: {
          ...(urls.linkedin ? { linkedin: { apiBaseUrl: urls.linkedin } } : {}),
          ...(urls.x ? { x: { apiBaseUrl: urls.x } } : {}),
          requestTimeoutMs: 2_000,
          retryBaseDelayMs: 20,
          ...publishing,
        },
      },
      ...extra.config,
    },
  };
}

export function startPublishingHost(urls: FakeUrls, publishing: Record<string, unknown> = {}, extra: StartOptions = {}): Promise<TestHost> {
  return startTestHost(publishingOptions(urls, publishing, extra));
}

export async function setSecret(h: TestHost, name: string, value: string): Promise<void> {
  const res = await h.json<ApiBody<"postVault">>("/api/vault", { method: "POST", body: { name, value }, session: true });
  assert.ok(res.status === 201 || res.status === 200, JSON.stringify(res.body));
}

export async function deleteSecret(h: TestHost, name: string): Promise<void> {
  const res = await h.json<ApiBody<"deleteVault">>(`/api/vault?name=${name}`, { method: "DELETE", session: true });
  assert.is(res.status, 200, JSON.stringify(res.body));
}

export const decide = (h: TestHost, id: string, status: ApprovalDecision) => decideApproval(h, id, status);

export async function approve(h: TestHost, id: string): Promise<Approval> {
  const res = await decide(h, id, "approved");
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.is(res.body.approval.executionStatus, "succeeded", JSON.stringify(res.body.approval));
  return res.body.approval;
}

export async function outbox(h: TestHost, query: string): Promise<any[]> {
  const res = await h.json<ApiBody<"getContentOutbox">>(`/api/content/outbox?${query}`);
  assert.is(res.status, 200, JSON.stringify(res.body));
  return res.body.entries;
}

/** Waits until every entry of an approval is settled (published, failed or unknown) and returns them. */
export function settled(h: TestHost, approvalId: string, timeoutMs = scaled(5_000)): Promise<any[]> {
  return waitUntil(
    async () => {
      const entries = await outbox(h, `approvalId=${approvalId}`);
      return entries.length > 0 && entries.every((e) => ["published", "failed", "unknown"].includes(e.status)) ? entries : null;
    },
    { timeoutMs, label: `outbox entries of ${approvalId} to settle` },
  );
}

export async function pendingCount(h: TestHost): Promise<number> {
  return (await h.json<ApiBody<"getApprovals">>("/api/approvals")).body.pendingTotal;
}
