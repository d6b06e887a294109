// The built-in plugins, in the order they are listed to the host (the host orders them
// by dependencies; unrelated plugins keep this order).
import type { PluginDefinition } from "@muster/plugin";
import { activitiesPlugin } from "./activities/index.ts";
import { approvalsPlugin } from "./approvals/index.ts";
import { notificationsPlugin } from "./notifications/index.ts";
import { workPlugin } from "./work/index.ts";
import { memoryPlugin } from "./memory/index.ts";
import { streamPlugin } from "./stream/index.ts";
import { vaultPlugin } from "./vault/index.ts";
import { searchPlugin } from "./search/index.ts";
import { feedbackPlugin } from "./feedback/index.ts";
import { skillsPlugin } from "./skills/index.ts";
import { legacyBoardPlugin } from "./legacy-board/index.ts";
import { gatewayPlugin } from "./gateway/index.ts";
import { chatPlugin } from "./chat/index.ts";
import { councilPlugin } from "./council/index.ts";
import { dashboardPlugin } from "./dashboard/index.ts";
import { metricsPlugin } from "./metrics/index.ts";
import { terminalPlugin } from "./terminal/index.ts";
import { gitPlugin } from "./git/index.ts";
import { boardsPlugin } from "./boards/index.ts";
import { publishingPlugin } from "./publishing/index.ts";
import { messengerPlugin } from "./messenger/index.ts";
import { agentsPlugin } from "./agents/index.ts";
import { dispatchPlugin } from "./dispatch/index.ts";
import { usagePlugin } from "./usage/index.ts";
import { cronsPlugin } from "./crons/index.ts";
import { settingsPlugin } from "./settings/index.ts";
import { ragPlugin } from "./rag/index.ts";
import { gatewayApprovalsPlugin } from "./gateway-approvals/index.ts";

export const builtInPlugins: PluginDefinition[] = [activitiesPlugin, notificationsPlugin, approvalsPlugin, workPlugin, memoryPlugin, vaultPlugin, streamPlugin, searchPlugin, feedbackPlugin, skillsPlugin, legacyBoardPlugin, gatewayPlugin, chatPlugin, councilPlugin, dashboardPlugin, metricsPlugin, terminalPlugin, gitPlugin, boardsPlugin, publishingPlugin, messengerPlugin, agentsPlugin, usagePlugin, cronsPlugin, settingsPlugin, dispatchPlugin, gatewayApprovalsPlugin, ragPlugin];
