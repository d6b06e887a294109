// One live stream (`GET /api/sse`) for the whole console: pages and panels subscribe to event
// names or patterns (`work.*`) and are called for each matching frame; the connection state
// is shown in the header. After a reconnect every subscriber is called once with
// `{ type: "reconnected" }`, since anything may have changed while the stream was away.
import { useEffect, useRef, useState } from "preact/hooks";

export interface LiveEvent {
  type: "event";
  name: string;
  payload: Record<string, unknown>;
  timestamp?: string;
}
export interface LiveFileChange {
  type: "file_change";
  event: { path: string; type: string; timestamp?: string; [field: string]: unknown };
}
export type LiveMessage = LiveEvent | LiveFileChange | { type: "reconnected" };
export type LiveState = "connecting" | "live" | "reconnecting" | "offline";

type Listener = { patterns: readonly string[]; fn: (message: LiveMessage) => void };
const listeners = new Set<Listener>();
const stateListeners = new Set<(state: LiveState) => void>();
let state: LiveState = "connecting";
let source: EventSource | undefined;

/** Whether an event name matches a pattern: `*`, a prefix ending in `.*`, or the exact name. */
export function matches(pattern: string, name: string): boolean {
  if (pattern === "*") return true;
  if (pattern.endsWith(".*")) return name.startsWith(pattern.slice(0, -1));
  return name === pattern;
}

function setState(next: LiveState): void {
  state = next;
  for (const listener of stateListeners) listener(next);
}

function deliver(message: LiveMessage): void {
  for (const listener of listeners) {
    const wanted =
      message.type === "reconnected" ||
      (message.type === "event" && listener.patterns.some((pattern) => matches(pattern, message.name))) ||
      (message.type === "file_change" && listener.patterns.some((pattern) => pattern === "*" || pattern === "file_change"));
    if (wanted) listener.fn(message);
  }
}

/** Opens the stream (once). */
export function connectLive(): void {
  if (source) return;
  let opened = false;
  source = new EventSource("/api/sse");
  source.addEventListener("open", () => {
    if (opened) deliver({ type: "reconnected" });
    opened = true;
    setState("live");
  });
  source.addEventListener("error", () => setState(source?.readyState === EventSource.CLOSED ? "offline" : "reconnecting"));
  source.addEventListener("message", (frame) => {
    let message: LiveMessage;
    try {
      message = JSON.parse(frame.data) as LiveMessage;
    } catch {
      return;
    }
    if (message.type === "event" || message.type === "file_change") deliver(message);
  });
}

/** Calls `fn` for every live message matching `patterns` (`file_change` for workspace writes) while mounted. */
export function subscribe(patterns: readonly string[], fn: (message: LiveMessage) => void): () => void {
  const listener = { patterns, fn };
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Hook: `fn` runs for each matching message; the latest `fn` is used without resubscribing. */
export function useLive(patterns: readonly string[], fn: (message: LiveMessage) => void): void {
  const latest = useRef(fn);
  latest.current = fn;
  const key = patterns.join(" ");
  useEffect(() => subscribe(key ? key.split(" ") : [], (message) => latest.current(message)), [key]);
}

/** Hook: the stream's connection state. */
export function useLiveState(): LiveState {
  const [current, setCurrent] = useState(state);
  useEffect(() => {
    stateListeners.add(setCurrent);
    setCurrent(state);
    return () => void stateListeners.delete(setCurrent);
  }, []);
  return current;
}
