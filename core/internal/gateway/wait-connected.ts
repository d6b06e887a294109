// `ready(timeoutMs)` of a gateway client (one link or the router over several): the first
// `connected` state resolves it; when none comes in time, `refuse()` says why.
import type { GatewayStatus } from "../../plugin-api/gateway.ts";

export function waitForConnected(onState: (listener: (status: GatewayStatus) => void) => () => void, timeoutMs: number, refuse: () => Promise<void>): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      refuse().then(resolve, reject);
    }, timeoutMs);
    const off = onState((status) => {
      if (status.state !== "connected") return;
      clearTimeout(timer);
      // onState calls back at once, before `off` is assigned.
      queueMicrotask(() => off());
      resolve();
    });
  });
}
