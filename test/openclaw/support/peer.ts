// The one real gateway and fake model of a `npm run test:openclaw` run, shared by every
// file of the suite. The runner (test/openclaw/run.ts) starts them before it loads the
// files and stops them after; a file only reads them.
import type { FakeModel } from "../../../scripts/openclaw-peer/fake-model.ts";
import type { GatewayPeer } from "../../../scripts/openclaw-peer/gateway-peer.ts";

export interface OpenClawPeer {
  gateway: GatewayPeer;
  model: FakeModel;
}

let current: OpenClawPeer | undefined;

export function setPeer(peer: OpenClawPeer | undefined): void {
  current = peer;
}

export function peer(): OpenClawPeer {
  if (!current) throw new Error("no OpenClaw peer: run these files through `npm run test:openclaw`");
  return current;
}
