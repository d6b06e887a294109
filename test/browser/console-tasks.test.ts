// The Tasks and planning pages in a real headless Chromium against a real host: filters kept
// in the address, inline edits of title, status and assignee saved through PATCH, a refusal
// shown with its code, clicking a task opens its page, 10,000 tasks loaded a page at a time,
// agent-written titles kept as text, the accessibility check and the pages at 390 px.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { Page } from "playwright-core";
import { removeHome, startTestHost, type TestHost } from "../helpers/start-test-host.ts";
import { chromiumMissing } from "./browser.ts";
import { consoleSuite, type ConsoleSuite } from "./console-suite.ts";
import { describeViolations, seriousViolations } from "./console.ts";

const t = suite("console: tasks");
const missing = chromiumMissing();
const XSS = `<img src=x onerror="window.__xss=1">`;

const suiteRig = missing ? undefined : consoleSuite(t, async () => {
  const host = await startTestHost({ config: { owner: "sam" } });
  return { host, stop: async () => { await host.stop(); removeHome(host.home); } };
});
let h: TestHost;
t.before(() => void (h = suiteRig!.host()));
const withPage: ConsoleSuite["withPage"] = (path, fn, viewport) => suiteRig!.withPage(path, fn, viewport);

async function createTask(title: string, fields: Record<string, unknown> = {}): Promise<{ id: string; title: string }> {
  const res = await h.json("/api/tasks", { method: "POST", body: { title, ...fields } });
  assert.is(res.status, 201, JSON.stringify(res.body));
  return res.body;
}
const stored = async (id: string) => (await h.json(`/api/tasks/${id}`)).body;
const row = (page: Page, title: string) => page.locator("table.data tbody tr").filter({ has: page.getByRole("link", { name: title, exact: true }) });


if (missing) {
  t("chromium is installed", () => assert.unreachable(missing));
} else {
  t("filters by status, priority and assignee narrow the table and stay in the address", async () => {
    await createTask("Filter: urgent for loki", { priority: "critical", assignedTo: "loki", status: "in_progress" });
    await createTask("Filter: low for thor", { priority: "low", assignedTo: "thor" });
    await createTask("Filter: backlog for loki", { priority: "low", assignedTo: "loki" });
    await withPage("/console/tasks", async (page) => {
      await row(page, "Filter: low for thor").waitFor();
      await page.getByLabel("Priority filter").selectOption("low");
      await page.waitForURL(/priority=low/);
      await row(page, "Filter: urgent for loki").waitFor({ state: "detached" });
      await row(page, "Filter: low for thor").waitFor();
      await page.getByRole("textbox", { name: "Assignee filter" }).fill("loki");
      await page.getByRole("textbox", { name: "Assignee filter" }).press("Enter");
      await page.waitForURL(/assignedTo=loki/);
      await row(page, "Filter: low for thor").waitFor({ state: "detached" });
      await row(page, "Filter: backlog for loki").waitFor();
      await page.reload();
      await row(page, "Filter: backlog for loki").waitFor();
      assert.is(await row(page, "Filter: low for thor").count(), 0, "a reload keeps the filters");
      assert.is(await page.getByLabel("Priority filter").inputValue(), "low");
      await page.goto(`${h.url}/console/tasks?status=in_progress`);
      await row(page, "Filter: urgent for loki").waitFor();
      assert.is(await row(page, "Filter: backlog for loki").count(), 0);
    });
  });

  t("inline edits of status, assignee and title are saved; a refused edit shows its code", async () => {
    const task = await createTask("Inline edit me");
    await withPage("/console/tasks", async (page) => {
      const line = row(page, "Inline edit me");
      await line.getByRole("combobox", { name: "Status of Inline edit me" }).selectOption("blocked");
      await waitForStored(task.id, (t) => t.status === "blocked");
      await line.getByRole("button", { name: "Edit assignee of Inline edit me" }).click();
      await line.getByRole("textbox", { name: "Assignee of Inline edit me" }).fill("freya");
      await line.getByRole("textbox", { name: "Assignee of Inline edit me" }).press("Enter");
      await line.getByText("freya").waitFor();
      assert.is((await stored(task.id)).assignedTo, "freya");
      // The focus returns to the Edit button after saving.
      await page.waitForFunction(`document.activeElement?.getAttribute("aria-label") === "Edit assignee of Inline edit me"`);
      await line.getByRole("button", { name: "Edit title of Inline edit me" }).click();
      await page.getByRole("textbox", { name: "Title of Inline edit me" }).fill("Inline edited");
      await page.getByRole("button", { name: "Save title of Inline edit me" }).click();
      await row(page, "Inline edited").waitFor();
      assert.is((await stored(task.id)).title, "Inline edited");
      // A blank title is refused by the API: the code shows and what was typed stays.
      await row(page, "Inline edited").getByRole("button", { name: "Edit title of Inline edited" }).click();
      await page.getByRole("textbox", { name: "Title of Inline edited" }).fill("   ");
      await page.getByRole("button", { name: "Save title of Inline edited" }).click();
      await page.locator(".error").getByText("VALIDATION_FAILED").waitFor();
      assert.is((await stored(task.id)).title, "Inline edited");
    });
  });

  t("clicking a task opens its page; its fields are saved from there and the address holds the place", async () => {
    const task = await createTask("Open my page", { description: "What to do" });
    await withPage("/console/tasks", async (page) => {
      await page.getByRole("link", { name: "Open my page", exact: true }).click();
      await page.getByRole("heading", { level: 1, name: "Open my page" }).waitFor();
      assert.match(page.url(), `/console/tasks/${task.id}`);
      await page.getByLabel("Notes").fill("Checked by sam");
      await page.getByLabel("Priority", { exact: true }).selectOption("high");
      await page.getByRole("button", { name: "Save task" }).click();
      await waitForStored(task.id, (t) => t.notes === "Checked by sam" && t.priority === "high");
      await page.reload();
      await page.getByRole("heading", { level: 1, name: "Open my page" }).waitFor();
      // Claim refused with its code: the task is not in the backlog any more.
      await h.json(`/api/tasks/${task.id}`, { method: "PATCH", body: { status: "blocked" } });
      await page.getByRole("textbox", { name: "Agent", exact: true }).fill("loki");
      await page.getByRole("button", { name: "Claim task" }).click();
      await page.locator(".error").getByText("TASK_NOT_CLAIMABLE").waitFor();
    });
  });

  t("planning: a sprint is created, renamed and its status changed in place", async () => {
    await withPage("/console/planning/sprints", async (page) => {
      await page.getByLabel("Name", { exact: true }).fill("Sprint 14");
      await page.getByRole("button", { name: "Create sprint" }).click();
      await page.getByRole("combobox", { name: "Status of Sprint 14" }).selectOption("active");
      await waitForRecord("/api/sprints", (s) => s.name === "Sprint 14" && s.status === "active");
      await page.getByRole("button", { name: "Edit name of Sprint 14" }).click();
      await page.getByRole("textbox", { name: "Name of Sprint 14" }).fill("Sprint 14b");
      await page.getByRole("textbox", { name: "Name of Sprint 14" }).press("Enter");
      await waitForRecord("/api/sprints", (s) => s.name === "Sprint 14b");
      await page.getByRole("link", { name: "Projects", exact: true }).click();
      await page.getByRole("button", { name: "Create project" }).waitFor();
    });
  });

  t("agent-written task titles stay text, in the table and on the task's page", async () => {
    const task = await createTask(XSS, { notes: XSS, assignedTo: "mallory" });
    await withPage("/console/tasks", async (page) => {
      await page.getByRole("link", { name: XSS, exact: true }).first().waitFor();
      await page.goto(`${h.url}/console/tasks/${task.id}`);
      await page.getByRole("heading", { level: 1, name: XSS }).waitFor();
      assert.is(await page.getByLabel("Notes").inputValue(), XSS);
      assert.is(await page.locator("img[src=x]").count(), 0);
      assert.is(await page.evaluate("window.__xss"), undefined);
    });
  });

  t("no serious accessibility violation on the tasks table, a task and the planning tables", async () => {
    const task = await createTask("Accessible task");
    for (const path of ["/console/tasks", `/console/tasks/${task.id}`, "/console/planning/sprints", "/console/planning/stories"]) {
      await withPage(path, async (page) => {
        await page.locator("h1").first().waitFor();
        if (path === "/console/tasks") await row(page, "Accessible task").waitFor();
        else if (path.includes(task.id)) await page.getByRole("heading", { name: "Review" }).waitFor();
        else await page.locator("table.data, .empty").first().waitFor();
        assert.equal(describeViolations(await seriousViolations(page)), "", path);
      });
    }
  });

  t("10,000 tasks: the table asks the API for a page, shows 100 rows, and more on demand", async () => {
    // Bulk rows through the API would take minutes on a loaded machine; 10,000 rows straight
    // into the store keep the test about the page.
    const have = Number((await h.request("/api/tasks?limit=1")).headers.get("x-total-count"));
    const db = (await import("better-sqlite3")).default(`${h.home}/muster.db`);
    try {
      const insert = db.prepare(`INSERT INTO work_tasks (id, title, status, priority, createdAt, updatedAt) VALUES (?, ?, 'backlog', 'medium', ?, ?)`);
      const when = "2020-01-01T00:00:00.000Z";
      db.transaction(() => {
        for (let i = 0; i < 10_000 - have; i++) insert.run(`bulk-${i}`, `Bulk task ${i}`, when, when);
      })();
    } finally {
      db.close();
    }
    await withPage("/console/tasks", async (page) => {
      const requests: string[] = [];
      page.on("request", (request) => request.url().includes("/api/tasks?") && requests.push(request.url()));
      await page.reload();
      await page.getByRole("button", { name: /Show more tasks/ }).waitFor();
      assert.is(await page.locator("table.data tbody tr").count(), 50);
      assert.ok(requests.length > 0 && requests.every((url) => /limit=\d+/.test(url)), `every request pages: ${requests.join(", ")}`);
      await page.getByRole("button", { name: /Show more tasks/ }).click();
      await page.waitForFunction(`document.querySelectorAll("table.data tbody tr").length === 100`);
      await page.getByRole("button", { name: "Load 500 more tasks from the server" }).click();
      await page.getByText("1000+ tasks").waitFor();
    });
  });

  t("at 390 px wide the tasks table and a task fit without scrolling the page sideways", async () => {
    const task = await createTask("Narrow task");
    for (const path of ["/console/tasks", `/console/tasks/${task.id}`, "/console/planning/epics"]) {
      await withPage(path, async (page) => {
        await page.locator("h1").first().waitFor();
        await page.locator("table.data, .empty, form").first().waitFor();
        assert.ok(await page.evaluate<boolean>("document.documentElement.scrollWidth <= 390"), `${path}: no horizontal scroll of the page`);
      }, { width: 390, height: 844 });
    }
  });
}

async function waitForStored(id: string, ok: (task: Record<string, unknown>) => boolean): Promise<void> {
  const { waitUntil } = await import("../helpers/wait.ts");
  await waitUntil(async () => ok(await stored(id)), { timeoutMs: 20_000, label: `task ${id} saved` });
}

async function waitForRecord(path: string, ok: (record: Record<string, unknown>) => boolean): Promise<void> {
  const { waitUntil } = await import("../helpers/wait.ts");
  await waitUntil(async () => ((await h.json(path)).body as Record<string, unknown>[]).some(ok), { timeoutMs: 20_000, label: `${path} saved` });
}

t.run();
