// Wires the dashboard: sign-in state, the panels, and the live stream that keeps them current.
import { captureCsrf, csrfSecret, forgetCsrf } from "./session.js";
import { debounce } from "./dom.js";
import { createApprovalsInbox } from "./approvals.js";
import { createTaskBoard } from "./board.js";
import { createActivityFeed } from "./feed.js";
import { createHealthPanel, createUsagePanel, createVaultPanel } from "./panels.js";

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
const feed = createActivityFeed();
const health = createHealthPanel();
const usage = createUsagePanel();
const vault = createVaultPanel();

const refreshInbox = debounce(() => inbox.refresh(), 100);
const refreshBoard = debounce(() => board.refresh(), 100);
const refreshVault = debounce(() => vault.refresh(), 100);
const refreshUsage = debounce(() => usage.refresh(), 500);

function connectStream() {
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
    if (message.name.startsWith("approvals.")) refreshInbox();
    else if (message.name.startsWith("work.task.")) refreshBoard();
    else if (message.name.startsWith("vault.secret.")) refreshVault();
    else if (message.name.startsWith("usage.")) refreshUsage();
  });
}

showSignIn();
await Promise.all([inbox.refresh(), board.refresh(), feed.loadRecent(), health.refresh(), usage.refresh(), vault.refresh()]);
connectStream();
setInterval(() => {
  void health.refresh();
  void usage.refresh();
}, POLL_MS);
document.body.dataset.ready = "true";
