// Shared pieces of the messenger suites: a host with the messenger pointed at the Telegram
// fake, its secrets, and Telegram-shaped updates.
import * as assert from "uvu/assert";
import type { PluginDefinition } from "@muster/plugin";
import { builtInPlugins } from "../../../plugins/built-in.ts";
import { messengerPlugin } from "../../../plugins/messenger/index.ts";
import type { StartOptions, TestHost } from "../../helpers/start-test-host.ts";
import { BOT_TOKEN } from "../../helpers/platform-fakes/telegram.ts";
import type { ApiBody } from "@muster/plugin/testing";

export const WEBHOOK_SECRET = "webhook-secret-3b1f0a9d77";
export const CHAT_ID = 4242;
export const OTHER_CHAT = 9999;

export const plugins: PluginDefinition[] = builtInPlugins.some((p) => p.id === "messenger") ? builtInPlugins : [...builtInPlugins, messengerPlugin];

export function messengerOptions(apiBaseUrl: string, messenger: Record<string, unknown> = {}): StartOptions {
  return {
    plugins,
    config: {
      vaultKey: "messenger test passphrase",
      approvers: ["frigg"],
      pluginConfig: { messenger: { telegram: { apiBaseUrl }, sendRetryDelayMs: 20, requestTimeoutMs: 2_000, media: { maxBytes: 1024 }, ...messenger } },
    },
  };
}

export async function configure(h: TestHost): Promise<void> {
  for (const [name, value] of [
    ["TELEGRAM_BOT_TOKEN", BOT_TOKEN],
    ["TELEGRAM_WEBHOOK_SECRET", WEBHOOK_SECRET],
    ["TELEGRAM_CHAT_ID", String(CHAT_ID)],
  ]) {
    const res = await h.json<ApiBody<"postVault">>("/api/vault", { method: "POST", body: { name, value }, session: true });
    assert.ok(res.status === 201 || res.status === 200, JSON.stringify(res.body));
  }
}

export const deliver = (h: TestHost, update: unknown, headers: Record<string, string> = { "x-telegram-bot-api-secret-token": WEBHOOK_SECRET }) =>
  h.json<ApiBody<"postMessengerWebhook">>("/api/messenger/webhook", { method: "POST", body: update, headers });

let nextUpdate = 1000;
export const updateId = () => ++nextUpdate;

export function press(data: string, options: { chat?: number; from?: number; update?: number; text?: string } = {}) {
  return {
    update_id: options.update ?? updateId(),
    callback_query: {
      id: `cb-${Math.random().toString(36).slice(2)}`,
      from: { id: options.from ?? 77, is_bot: false, first_name: "Ada" },
      chat_instance: "-1234",
      data,
      message: { message_id: 555, date: 1700000000, chat: { id: options.chat ?? CHAT_ID, type: "private" }, text: options.text ?? "Approval requested" },
    },
  };
}

export function message(fields: Record<string, unknown>, options: { chat?: number; update?: number } = {}) {
  return { update_id: options.update ?? updateId(), message: { message_id: 9, date: 1700000000, chat: { id: options.chat ?? CHAT_ID, type: "private" }, from: { id: 77, is_bot: false, first_name: "Ada" }, ...fields } };
}

/** A plain approval (POST /api/approvals) requested by an agent. */
export async function requestApproval(h: TestHost, title = "Deploy the site"): Promise<string> {
  const res = await h.json<ApiBody<"postApprovals">>("/api/approvals", { method: "POST", body: { title, type: "deploy", requestedBy: "agent-a", context: "needs a human" } });
  assert.is(res.status, 201, JSON.stringify(res.body));
  return res.body.approval.id;
}

export const approvalOf = async (h: TestHost, id: string) => (await h.json<ApiBody<"getApprovalsById">>(`/api/approvals/${id}`)).body.approval;
