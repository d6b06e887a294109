// The Boards page in a real headless Chromium against a real host: a board started from a
// template, a card dragged to another column and one moved by the keyboard alone (the move
// announced), a move past a WIP limit refused with its code, a card moved through the API
// showing up moved in the open page (and not drawn back by a load that crossed its event), the
// card's page, agent-written titles kept as text, the accessibility check, a board of 1,000
// cards paged per column, and the page at 390 px.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { Page, Route } from "playwright-core";
import { removeHome, startTestHost, type TestHost } from "../helpers/start-test-host.ts";
import { waitUntil } from "../helpers/wait.ts";
import { scaled } from "../helpers/time-scale.ts";
import { chromiumMissing } from "./browser.ts";
import { consoleSuite, type ConsoleSuite } from "./console-suite.ts";
import { describeViolations, seriousViolations, waitForConsole } from "./console.ts";

const t = suite("console: boards");
const missing = chromiumMissing();
const XSS = `<img src=x onerror="window.__xss=1">`;

const suiteRig = missing ? undefined : consoleSuite(t, async () => {
  const host = await startTestHost({ config: { owner: "sam" } });
  return { host, stop: async () => { await host.stop(); removeHome(host.home); } };
});
let h: TestHost;
t.before(() => void (h = suiteRig!.host()));
const withPage: ConsoleSuite["withPage"] = (path, fn, viewport) => suiteRig!.withPage(path, fn, viewport);

async function createBoard(name: string, body: Record<string, unknown> = { template: "kanban" }): Promise<{ id: string }> {
  const res = await h.json("/api/boards", { method: "POST", body: { name, ...body } });
  assert.is(res.status, 201, JSON.stringify(res.body));
  return res.body.board;
}

async function createCard(boardId: string, title: string, column?: string): Promise<{ id: string; title: string }> {
  const res = await h.json(`/api/boards/${boardId}/cards`, { method: "POST", body: { title, ...(column ? { column } : {}) } });
  assert.is(res.status, 201, JSON.stringify(res.body));
  return res.body.card;
}

/**
 * Opens `path` signed in, in a context of its own whose clock the test drives (a clock belongs
 * to the whole context, and the suite's other pages share theirs).
 */
async function withClockedPage(path: string, fn: (page: Page) => Promise<void>): Promise<void> {
  await withPage("/console/boards", async (signedIn) => {
    const csrf = (await signedIn.evaluate(`sessionStorage.getItem("muster.csrf")`)) as string;
    const context = await signedIn.context().browser()!.newContext({ viewport: { width: 1400, height: 1000 } });
    try {
      await context.addCookies(await signedIn.context().cookies());
      await context.clock.install();
      const page = await context.newPage();
      page.setDefaultTimeout(scaled(20_000));
      const url = new URL(path, h.url);
      url.hash = `csrf=${csrf}`;
      await page.goto(url.href);
      await waitForConsole(page);
      await fn(page);
    } finally {
      await context.close();
    }
  });
}

const columnOf = async (cardId: string) => (await h.json(`/api/cards/${cardId}`)).body.card.column as string;
const cardIn = (page: Page, column: string, cardId: string) => page.locator(`[data-column="${column}"] [data-card-id="${cardId}"]`);


if (missing) {
  t("chromium is installed", () => assert.unreachable(missing));
} else {
  t("a board is created from a template and opens with the template's columns and WIP limits", async () => {
    await withPage("/console/boards", async (page) => {
      await page.getByLabel("Name").fill("Launch week");
      await page.getByLabel("Template").selectOption("kanban");
      await page.getByRole("button", { name: "Create board" }).click();
      await page.getByRole("heading", { level: 1, name: "Launch week" }).waitFor();
      assert.match(page.url(), /\/console\/boards\/[^/]+$/);
      for (const name of ["Backlog", "To do", "Doing", "Review", "Done"]) await page.getByRole("heading", { level: 2, name }).waitFor();
      assert.match((await page.locator('[data-column="doing"] .badge').first().textContent())!, "0 / 5");
      // A card added from the page lands in the chosen column.
      await page.getByLabel("Card title").fill("Write the announcement");
      await page.getByLabel("Column").selectOption("todo");
      await page.getByRole("button", { name: "Add card" }).click();
      await page.locator('[data-column="todo"] .card-title').getByText("Write the announcement").waitFor();
    });
  });

  t("a card dragged to another column moves there", async () => {
    const board = await createBoard("Drag board");
    const card = await createCard(board.id, "Drag me", "backlog");
    await withPage(`/console/boards/${board.id}`, async (page) => {
      await cardIn(page, "backlog", card.id).dragTo(page.locator('[data-column="doing"]'));
      await cardIn(page, "doing", card.id).waitFor();
      assert.is(await columnOf(card.id), "doing");
      await page.locator("#board-announcer").getByText("Moved “Drag me” to Doing.").waitFor({ state: "attached" });
    });
  });

  t("a card is moved by the keyboard alone, the move is announced and the focus stays on the card", async () => {
    const board = await createBoard("Keyboard board");
    const card = await createCard(board.id, "Move me by keys", "backlog");
    await withPage(`/console/boards/${board.id}`, async (page) => {
      const moveRight = cardIn(page, "backlog", card.id).getByRole("button", { name: /Move right/ });
      await moveRight.waitFor();
      // Tab to the button from the card's link, as a keyboard user would.
      await cardIn(page, "backlog", card.id).getByRole("link").focus();
      // Expressions as strings: they run in the page, and this program is type-checked without the DOM library.
      const focused = () => page.evaluate<boolean>(`document.activeElement?.matches('[data-card-id="${card.id}"] .move-right') ?? false`);
      for (let i = 0; i < 5 && !(await focused()); i++) await page.keyboard.press("Tab");
      assert.ok(await focused(), "Move right is reachable by Tab");
      await page.keyboard.press("Enter");
      await cardIn(page, "todo", card.id).waitFor();
      await page.locator("#board-announcer").getByText("Moved “Move me by keys” to To do.").waitFor({ state: "attached" });
      await page.waitForFunction(`document.activeElement?.closest("[data-card-id]")?.dataset.cardId === ${JSON.stringify(card.id)}`);
      // Again, from where the focus was left.
      await page.keyboard.press("Enter");
      await cardIn(page, "doing", card.id).waitFor();
      assert.ok(await focused(), "the focus is on the moved card's Move right as soon as it is drawn in its new column");
      assert.is(await columnOf(card.id), "doing");
      await page.keyboard.press("Shift+Tab");
      await page.keyboard.press("Enter");
      await cardIn(page, "todo", card.id).waitFor();
      assert.is(await columnOf(card.id), "todo");
    });
  });

  t("a move past the WIP limit is refused and the page shows WIP_LIMIT_REACHED", async () => {
    const board = await createBoard("Tight board", { columns: [{ id: "todo", name: "To do" }, { id: "doing", name: "Doing", wipLimit: 1 }] });
    await createCard(board.id, "Already doing", "doing");
    const card = await createCard(board.id, "One too many", "todo");
    await withPage(`/console/boards/${board.id}`, async (page) => {
      await cardIn(page, "todo", card.id).dragTo(page.locator('[data-column="doing"]'));
      await page.locator(".error").getByText("WIP_LIMIT_REACHED").waitFor();
      assert.is(await cardIn(page, "todo", card.id).count(), 1);
      await cardIn(page, "todo", card.id).getByRole("button", { name: /Move right/ }).click();
      await page.locator(".error").getByText("WIP_LIMIT_REACHED").waitFor();
      assert.is(await columnOf(card.id), "todo");
    });
  });

  t("a card moved through the API shows up moved in the open page (live)", async () => {
    const board = await createBoard("Live board");
    const card = await createCard(board.id, "Moved elsewhere", "backlog");
    await withPage(`/console/boards/${board.id}`, async (page) => {
      await cardIn(page, "backlog", card.id).waitFor();
      const res = await h.json(`/api/cards/${card.id}`, { method: "PATCH", body: { column: "review" } });
      assert.is(res.status, 200, JSON.stringify(res.body));
      await cardIn(page, "review", card.id).waitFor();
      assert.is(await cardIn(page, "backlog", card.id).count(), 0);
    });
  });

  t("a card moved elsewhere is drawn from its live event, before the board is loaded again", async () => {
    const board = await createBoard("Event board");
    const card = await createCard(board.id, "Drawn from the event", "backlog");
    await withPage(`/console/boards/${board.id}`, async (page) => {
      await cardIn(page, "backlog", card.id).waitFor();
      // From now on the board's reloads never answer: only the event can move the card.
      const held: { abort: () => Promise<void> }[] = [];
      await page.route((url) => url.pathname === `/api/boards/${board.id}`, (route) => void held.push(route));
      try {
        const res = await h.json(`/api/cards/${card.id}`, { method: "PATCH", body: { column: "review", position: 0 } });
        assert.is(res.status, 200, JSON.stringify(res.body));
        await cardIn(page, "review", card.id).waitFor();
        assert.is(await cardIn(page, "backlog", card.id).count(), 0);
        const archived = await h.json(`/api/cards/${card.id}`, { method: "PATCH", body: { archived: true } });
        assert.is(archived.status, 200, JSON.stringify(archived.body));
        await page.locator(`[data-card-id="${card.id}"]`).waitFor({ state: "detached" });
        // The reload follows each burst of events after a short settle (it restarts on the archive's
        // event), so it may come after the card is gone: wait for it rather than expect it already.
        await waitUntil(() => held.length > 0, { timeoutMs: 10_000, label: "the page asking for the board again" });
      } finally {
        await page.unrouteAll({ behavior: "ignoreErrors" });
        await Promise.all(held.map((route) => route.abort().catch(() => undefined)));
      }
    });
  });

  t("a load sent before a move's event, answering after it, does not draw the card back", async () => {
    const board = await createBoard("Crossing board");
    const card = await createCard(board.id, "Not drawn back", "backlog");
    await withClockedPage(`/console/boards/${board.id}`, async (page) => {
      await cardIn(page, "backlog", card.id).waitFor();
      // The page's timers stand still, so its settle reload starts only when the test says so and
      // the order below (load sent, event received, load answered) is the one that happens.
      await page.clock.pauseAt(Date.now() + 60_000);
      const held: { route: Route; body: { board: { name: string } } }[] = [];
      await page.route((url) => url.pathname === `/api/boards/${board.id}`, async (route) => {
        const response = await route.fetch();
        held.push({ route, body: await response.json() });
      });
      try {
        // Another card's event makes the page load the board again: that load is answered (by the
        // server) now, before the move, and held on its way back.
        const other = await createCard(board.id, "Someone else's card", "todo");
        // The event reaches the page some time after the create answers: the clock moves only once
        // the page has drawn it (and so armed its settle timer), or the reload would never start.
        await cardIn(page, "todo", other.id).waitFor();
        await page.clock.runFor(100);
        await waitUntil(() => held.length === 1, { timeoutMs: 10_000, label: "the page loading the board again" });
        const moved = await h.json(`/api/cards/${card.id}`, { method: "PATCH", body: { column: "review" } });
        assert.is(moved.status, 200, JSON.stringify(moved.body));
        await cardIn(page, "review", card.id).waitFor();
        // The old answer lands now; its board name shows that it was drawn.
        const { route, body } = held[0]!;
        await route.fulfill({ json: { ...body, board: { ...body.board, name: "Drawn from the old answer" } } });
        await page.getByRole("heading", { level: 1, name: "Drawn from the old answer" }).waitFor();
        assert.is(await cardIn(page, "review", card.id).count(), 1, "the card stays where its event put it");
        assert.is(await cardIn(page, "backlog", card.id).count(), 0);
      } finally {
        await page.unrouteAll({ behavior: "ignoreErrors" });
        await Promise.all(held.map(({ route }) => route.abort().catch(() => undefined)));
      }
      // The next load (sent after the event) shows the server's board.
      await page.clock.runFor(100);
      await page.getByRole("heading", { level: 1, name: "Crossing board" }).waitFor();
      assert.is(await cardIn(page, "review", card.id).count(), 1);
    });
  });

  t("the card's page: comments, checklist, claim (refusal with its code), history", async () => {
    const board = await createBoard("Detail board");
    const card = await createCard(board.id, "Card with details", "todo");
    await withPage(`/console/boards/${board.id}`, async (page) => {
      await cardIn(page, "todo", card.id).getByRole("link", { name: "Card with details" }).click();
      await page.getByRole("heading", { level: 1, name: "Card with details" }).waitFor();
      assert.match(page.url(), `/console/boards/${board.id}/${card.id}`);
      await page.getByLabel("Comment", { exact: true }).fill("Looks right to me");
      await page.getByRole("button", { name: "Add comment" }).click();
      await page.locator(".comments").getByText("Looks right to me").waitFor();
      await page.getByLabel("New item").fill("Check the links");
      await page.getByRole("button", { name: "Add item" }).click();
      // The box shows what the server holds: checked once the PATCH is stored.
      await page.getByRole("checkbox", { name: "Check the links" }).click();
      await page.locator(".checklist input:checked").waitFor();
      await page.waitForFunction(`document.querySelector(".card-history")?.textContent.includes("checklist")`);
      await page.getByRole("textbox", { name: "Agent", exact: true }).fill("loki");
      await page.getByRole("button", { name: "Claim card" }).click();
      await page.locator(".card-history").getByText("claimed").waitFor();
      await page.getByRole("textbox", { name: "Agent", exact: true }).fill("thor");
      await page.getByRole("button", { name: "Claim card" }).click();
      await page.locator(".error").getByText("CARD_ALREADY_CLAIMED").waitFor();
      const stored = (await h.json(`/api/cards/${card.id}`)).body.card;
      assert.equal(stored.checklist, [{ text: "Check the links", checked: true }]);
      assert.is(stored.assignee, "loki");
      // The address holds the place: a reload lands on the card again.
      await page.reload();
      await page.getByRole("heading", { level: 1, name: "Card with details" }).waitFor();
    });
  });

  t("agent-written card titles and comments stay text", async () => {
    const board = await createBoard(XSS);
    const card = await createCard(board.id, XSS, "todo");
    await h.json(`/api/cards/${card.id}/comments`, { method: "POST", body: { content: XSS, author: "mallory" } });
    await withPage(`/console/boards/${board.id}`, async (page) => {
      assert.is(await cardIn(page, "todo", card.id).locator(".card-title").textContent(), XSS);
      assert.is(await page.locator("h1").textContent(), XSS);
      await page.goto(`${h.url}/console/boards/${board.id}/${card.id}`);
      await page.locator(".comments").getByText(XSS).waitFor();
      await page.goto(`${h.url}/console/boards`);
      await page.getByRole("link", { name: XSS }).first().waitFor();
      assert.is(await page.locator("img[src=x]").count(), 0);
      assert.is(await page.evaluate("window.__xss"), undefined);
    });
  });

  t("no serious accessibility violation on the board list, a board and a card", async () => {
    const board = await createBoard("Accessible board", { template: "content" });
    const card = await createCard(board.id, "Accessible card", "ideas");
    for (const path of ["/console/boards", `/console/boards/${board.id}`, `/console/boards/${board.id}/${card.id}`]) {
      await withPage(path, async (page) => {
        await page.locator("h1").first().waitFor();
        await page.locator(".meta, .kanban").first().waitFor();
        if (path.endsWith(card.id)) await page.getByRole("heading", { name: "History" }).waitFor();
        else if (path.endsWith(board.id)) await cardIn(page, "ideas", card.id).waitFor();
        else await page.getByRole("link", { name: "Accessible board" }).waitFor();
        assert.equal(describeViolations(await seriousViolations(page)), "", path);
      });
    }
  });

  t("a board of 1,000 cards draws a page of each column and shows more on demand", async () => {
    const board = await createBoard("Big board", { columns: [{ id: "todo", name: "To do" }, { id: "done", name: "Done" }] });
    for (let start = 0; start < 1000; start += 50) {
      await Promise.all(Array.from({ length: 50 }, (_, i) => createCard(board.id, `Card ${start + i}`, "todo")));
    }
    await withPage(`/console/boards/${board.id}`, async (page) => {
      const todo = page.locator('[data-column="todo"] .kanban-card');
      await page.getByRole("button", { name: "Show more cards in To do (950 more)" }).waitFor();
      assert.is(await todo.count(), 50);
      await page.getByRole("button", { name: /Show more cards in To do/ }).click();
      await page.getByRole("button", { name: "Show more cards in To do (900 more)" }).waitFor();
      assert.is(await todo.count(), 100);
    });
  });

  t("at 390 px wide the board scrolls nothing sideways but itself, and its controls still work", async () => {
    const board = await createBoard("Narrow board");
    const card = await createCard(board.id, "Narrow card", "backlog");
    await withPage(`/console/boards/${board.id}`, async (page) => {
      await cardIn(page, "backlog", card.id).waitFor();
      assert.ok(await page.evaluate<boolean>("document.documentElement.scrollWidth <= 390"), "no horizontal scroll of the page");
      await cardIn(page, "backlog", card.id).getByRole("button", { name: /Move right/ }).click();
      await cardIn(page, "todo", card.id).waitFor();
      await page.goto(`${h.url}/console/boards`);
      await page.getByRole("link", { name: "Narrow board" }).waitFor();
      assert.ok(await page.evaluate<boolean>("document.documentElement.scrollWidth <= 390"), "the list fits too");
    }, { width: 390, height: 844 });
  });
}

t.run();
