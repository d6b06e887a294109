// The licence check's wire path against a minimal JSON-RPC peer on 127.0.0.1 (answers
// eth_call for holdsValidLicense by the address asked about), so it runs where a hardhat node
// cannot; packs-licence.test.ts checks the same against the real contracts. The proofs are
// real EIP-712 signatures by Hardhat's well-known development keys (no secret: public test keys).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { createWalletClient, http } from "viem";
import { mnemonicToAccount } from "viem/accounts";
import { signPackLicence, type PackLicenceChallenge } from "../../../sdk/src/index.ts";
import { ORG, startAgentsRig, type AgentsRig } from "./agents-rig.ts";
import type { ApiBody } from "@muster/plugin/testing";

// Hardhat's development accounts #1 and #2 (its public test mnemonic).
const HARDHAT_MNEMONIC = "test test test test test test test test test test test junk";
const holderAccount = mnemonicToAccount(HARDHAT_MNEMONIC, { addressIndex: 1 });
const otherAccount = mnemonicToAccount(HARDHAT_MNEMONIC, { addressIndex: 2 });
const HOLDER = holderAccount.address.toLowerCase();
const OTHER = otherAccount.address.toLowerCase();
const ADDRESSES = { templateRegistry: `0x${"1".repeat(40)}`, licenseToken: `0x${"2".repeat(40)}`, marketplace: `0x${"3".repeat(40)}` };
const pack = (name: string) => JSON.stringify({ name, version: "1.0.0", templateId: 7, agents: [{ id: `${name}-a`, name: "A", role: "operator", model: "m", tier: 3 }] });

const t = suite<{ rig: AgentsRig; rpc: Server; calls: Array<{ method: string; params: Array<{ to: string; data?: string }> }> }>("agents: licence check over JSON-RPC");
t.before(async (ctx) => {
  ctx.calls = [];
  ctx.rpc = createServer((req, res) => {
    let text = "";
    req.on("data", (c) => (text += c));
    req.on("end", () => {
      const call = JSON.parse(text);
      ctx.calls.push(call);
      const data: string = call.params?.[0]?.data ?? "";
      const holds = call.method === "eth_call" && call.params[0].to.toLowerCase() === ADDRESSES.licenseToken && data.includes(HOLDER.slice(2));
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ jsonrpc: "2.0", id: call.id, result: `0x${(holds ? "1" : "0").padStart(64, "0")}` }));
    });
  });
  await new Promise<void>((r) => ctx.rpc.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(ctx.rpc.address() as AddressInfo).port}`;
  ctx.rig = await startAgentsRig({
    files: { "company/org_structure.yaml": ORG, "packs/a.json": pack("a"), "packs/b.json": pack("b") },
    agentsConfig: { marketplace: { rpcUrl: url, addresses: ADDRESSES, timeoutMs: 1_000 } },
  });
});
t.after(async (ctx) => {
  await ctx.rig?.close();
  ctx.rpc.closeAllConnections();
  await new Promise((r) => ctx.rpc.close(r));
});

/** A proof for `name` signed by `account` for its own address, from a fresh challenge. */
async function signedInstall(rig: AgentsRig, name: string, account: typeof holderAccount) {
  const challenge = await rig.h.json("/api/packs/licence-challenge", { method: "POST", body: { name, holder: account.address } });
  assert.is(challenge.status, 201, JSON.stringify(challenge.body));
  const proof = await signPackLicence(createWalletClient({ account, transport: http("http://127.0.0.1:9") }), { challenge: challenge.body.challenge as PackLicenceChallenge }); // hex strings as viem's Hex (the OpenAPI types them as strings)
  return { name, buyer: account.address, proof };
}

t("a bare buyer → 403 LICENSE_PROOF_REQUIRED; signed: holdsValidLicense false → 403, true → 201, peer gone → 503; the licence token contract is asked", async (ctx) => {
  const { rig } = ctx;
  const bare = await rig.h.json<ApiBody<"postPacks">>("/api/packs", { method: "POST", body: { name: "a", buyer: HOLDER } });
  assert.is(bare.status, 403);
  assert.is(bare.body.error?.code, "LICENSE_PROOF_REQUIRED");
  const refused = await rig.h.json<ApiBody<"postPacks">>("/api/packs", { method: "POST", body: await signedInstall(rig, "a", otherAccount) });
  assert.is(refused.status, 403);
  assert.is(refused.body.error?.code, "LICENSE_REQUIRED");
  assert.ok(ctx.calls.some((c) => c.method === "eth_call" && c.params[0]?.to.toLowerCase() === ADDRESSES.licenseToken));
  const held = await rig.h.json<ApiBody<"postPacks">>("/api/packs", { method: "POST", body: await signedInstall(rig, "a", holderAccount) });
  assert.is(held.status, 201, JSON.stringify(held.body));
  const signedB = await signedInstall(rig, "b", holderAccount);
  ctx.rpc.closeAllConnections();
  await new Promise((r) => ctx.rpc.close(r));
  ctx.rpc = createServer();
  const down = await rig.h.json<ApiBody<"postPacks">>("/api/packs", { method: "POST", body: signedB });
  assert.is(down.status, 503);
  assert.is(down.body.error?.code, "LICENSE_CHECK_UNAVAILABLE");
  assert.is((await rig.h.json<ApiBody<"getAgentsById">>("/api/agents/b-a")).status, 404);
});

t.run();
