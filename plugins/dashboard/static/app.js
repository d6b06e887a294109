// Wires the dashboard: sign-in state, the built-in sections, the panels plugins contribute,
// and the live stream that keeps them current.
import { captureCsrf, csrfSecret, forgetCsrf } from "./session.js";
import { debounce } from "./dom.js";
import { createApprovalsInbox } from "./approvals.js";
import { createTaskBoard } from "./board.js";
import { createActivityFeed } from "./feed.js";
import { describe, loadEventFamilies, matchesAny, patternsOf } from "./event-families.js";
import { createPluginPanels } from "./plugin-panels.js";

const POLL_MS = 30_000;

captureCsrf();

const signinState = document.getElementById("signin-state");
const signinBanner = document.getElementById("signin-banner");
const liveState = document.getElementById("live-state");

function showSignIn() {
  const signedIn = csrfSecret() !== null;
  signinState.textContent = signedIn ? "Signed in" : "Not signed in";
  signinState.className = `pill ${signedIn ? "ok" : "warn"}`;
  signinBanner.hidden = signedIn;
}

const inbox = createApprovalsInbox({
  signedIn: () => csrfSecret() !== null,
  onSignedOut: () => {
    forgetCsrf();
    showSignIn();
  },
});
const board = createTaskBoard();
let families = [];
const feed = createActivityFeed({ describe: (name) => describe(families, name) });
const panels = createPluginPanels(document.getElementById("side"));

const refreshInbox = debounce(() => inbox.refresh(), 100);
const refreshBoard = debounce(() => board.refresh(), 100);

function connectStream() {
  // The inbox and the board show the approvals and work plugins' records: they follow the
  // events those plugins say they publish, whatever the names are.
  const inboxEvents = patternsOf(families, "approvals");
  const boardEvents = patternsOf(families, "work");
  const stream = new EventSource("/api/sse");
  stream.addEventListener("open", () => {
    liveState.textContent = "Live";
    liveState.className = "pill ok";
    // Anything may have changed while disconnected.
    refreshInbox();
    refreshBoard();
  });
  stream.addEventListener("error", () => {
    liveState.textContent = stream.readyState === EventSource.CLOSED ? "Offline" : "Reconnecting…";
    liveState.className = "pill warn";
  });
  stream.addEventListener("message", (frame) => {
    let message;
    try {
      message = JSON.parse(frame.data);
    } catch {
      return;
    }
    feed.onStreamMessage(message);
    if (message.type !== "event") return;
    if (matchesAny(inboxEvents, message.name)) refreshInbox();
    if (matchesAny(boardEvents, message.name)) refreshBoard();
    panels.onEvent(message.name);
  });
}

showSignIn();
await Promise.all([inbox.refresh(), board.refresh(), feed.loadRecent(), panels.load(), loadEventFamilies().then((loaded) => (families = loaded))]);
connectStream();
setInterval(() => void panels.refreshAll(), POLL_MS);
document.body.dataset.ready = "true";
