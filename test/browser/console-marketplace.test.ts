// The Marketplace console page in a real Chromium against a real host whose agents plugin reads
// a real local chain (hardhat node, the marketplace deployed with its Ignition module): templates
// with price and installs, the licences an address holds, buying through an injected EIP-1193
// wallet (a stub the test injects that forwards to the node, whose accounts are unlocked),
// installing a licensed pack with a signature from that wallet, the "no wallet" path with the
// command line, refusals with their codes, creator-written text as text, the accessibility check
// and a 390 px wide screen.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { network } from "hardhat";
import { createWalletClient, http, parseEther, toFunctionSelector, type Address } from "viem";
import { hardhat } from "viem/chains";
import type { Page } from "playwright-core";
import { deployMusterMarketplace } from "../../contracts/ignition/deploy.ts";
import { getMarketplaceDeployment, loadMarketplaceDeployments, marketplaceActions, type MarketplaceAddresses } from "../../sdk/src/index.ts";
import { buildContracts } from "../contracts/support/build-lock.ts";
import { startHardhatNode, type HardhatNode } from "../sdk/support/hardhat-node.ts";
import { ORG, startAgentsRig, type AgentsRig } from "../plugins/agents/agents-rig.ts";
import { removeHome, startTestHost, type TestHost } from "../helpers/start-test-host.ts";
import { suiteBrowser } from "./console-suite.ts";
import { chromiumMissing } from "./browser.ts";
import { describeViolations, seriousViolations, waitForConsole } from "./console.ts";

const t = suite("console: marketplace");
const missing = chromiumMissing();
const XSS = `<img src=x onerror="window.__xss=1">`;
const deploymentId = `console-marketplace-test-${process.pid}`;
const ignitionJournal = new URL(`../../contracts/ignition/deployments/${deploymentId}`, import.meta.url).pathname;

const agent = (id: string, over: Record<string, unknown> = {}) => ({ id, name: id.toUpperCase(), role: "operator", model: "m-small", tier: 3, skills: ["ops"], ...over });
const licensedPack = (name: string, templateId: number) =>
  JSON.stringify({ name, version: "1.0.0", description: `${name} pack`, templateId, squad: { id: name, name: `${name} squad`, domain: "ops", chief: `${name}-a` }, agents: [agent(`${name}-a`, { tier: 2, persona: "developer" })] });

let node: HardhatNode;
let tmp: string;
let addresses: MarketplaceAddresses;
let accounts: Address[];
let rig: AgentsRig;
let bare: TestHost;
/** One browser for the suite (console-suite.ts). */
const shared = suiteBrowser();

async function setUp(): Promise<void> {
  await buildContracts();
  node = await startHardhatNode();
  tmp = mkdtempSync(join(tmpdir(), "muster-console-market-"));
  const deploymentsFile = join(tmp, "deployments.json");
  accounts = await createWalletClient({ chain: hardhat, transport: http(node.url) }).getAddresses();
  const connection = await network.connect({ network: "localhost", override: { url: node.url } });
  try {
    await deployMusterMarketplace(connection, { deploymentId, freshJournal: true, deploymentsFile });
  } finally {
    await connection.close();
    rmSync(ignitionJournal, { recursive: true, force: true });
  }
  const deployment = getMarketplaceDeployment(await loadMarketplaceDeployments(deploymentsFile), hardhat.id);
  addresses = { templateRegistry: deployment.templateRegistry, licenseToken: deployment.licenseToken, marketplace: deployment.marketplace };
  const creator = createWalletClient({ account: accounts[1]!, chain: hardhat, transport: http(node.url) }).extend(marketplaceActions(addresses));
  // Template 1's metadata address is creator-written text: an XSS string.
  await creator.registerTemplate({ metadataURI: `ipfs://research-squad/${XSS}`, price: parseEther("0.01"), royaltyBps: 500 });
  await creator.registerTemplate({ metadataURI: "ipfs://writers", price: parseEther("0.02"), royaltyBps: 0 });
  rig = await startAgentsRig({
    files: { "company/org_structure.yaml": ORG, "personas/execution/developer.md": "# Developer", "packs/research.json": licensedPack("research", 1) },
    agentsConfig: { marketplace: { rpcUrl: node.url, addresses, timeoutMs: 10_000 } },
  });
  // A host with no marketplace chain configured, for the refusal.
  bare = await startTestHost();
  await shared.open();
}

t.before(async () => {
  if (missing) return;
  await setUp().catch(async (error: unknown) => {
    console.error("console-marketplace set-up failed:", error);
    await tearDown();
    throw error;
  });
});

async function tearDown() {
  await shared.close();
  await rig?.close();
  if (bare) {
    await bare.stop();
    removeHome(bare.home);
  }
  await node?.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
}
t.after(async () => {
  if (!missing) await tearDown();
});

/**
 * An EIP-1193 wallet stub: `request` goes to the hardhat node through the test (the page's CSP
 * allows no other origin), its one account is `account`, and every request is recorded in
 * `window.__walletCalls` so the test can check what the page asked the wallet to send.
 */
async function injectWallet(page: Page, account: Address) {
  await page.exposeFunction("__walletRpc", async (method: string, params: unknown[]) => {
    const response = await fetch(node.url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
    return response.json();
  });
  await page.addInitScript(`
    window.__walletCalls = [];
    window.ethereum = {
      async request({ method, params = [] }) {
        window.__walletCalls.push({ method, params });
        if (method === "eth_requestAccounts" || method === "eth_accounts") return [${JSON.stringify(account)}];
        const answer = await window.__walletRpc(method, params);
        if (answer.error) throw Object.assign(new Error(answer.error.message), { code: answer.error.code });
        return answer.result;
      },
    };
  `);
}

async function openMarketplace(h: TestHost, options: { wallet?: Address; viewport?: { width: number; height: number } } = {}): Promise<Page> {
  // Like openConsole, but the wallet is injected before the first page load.
  const context = await shared.browser.newContext({ viewport: options.viewport ?? { width: 1400, height: 1000 } });
  const opened = await context.newPage();
  opened.setDefaultTimeout(30_000);
  if (options.wallet) await injectWallet(opened, options.wallet);
  await opened.goto(h.host.loginLink().url);
  await waitForConsole(opened);
  await opened.goto(new URL("/console/marketplace", h.url).href);
  await waitForConsole(opened);
  await opened.getByRole("heading", { level: 1, name: "Marketplace" }).waitFor();
  return opened;
}

const section = (page: Page, title: string) => page.locator("section", { has: page.getByRole("heading", { level: 2, name: title, exact: true }) });
const templateRow = (page: Page, id: string) => section(page, "Templates").getByRole("row").filter({ has: page.getByText(`#${id}`, { exact: true }) });

if (missing) {
  t("chromium is installed", () => assert.unreachable(missing));
} else {
  t("without a wallet: templates with price and installs, the page says there is no wallet and shows the command line", async () => {
    const page = await openMarketplace(rig.h);
    try {
      await templateRow(page, "1").getByText("0.01 ETH").waitFor();
      assert.match(await templateRow(page, "2").innerText(), /0\.02 ETH\s+0/);
      await section(page, "Wallet").getByText("No wallet in this browser.").waitFor();
      assert.match(await section(page, "Wallet").innerText(), "muster packs install");
      assert.match(await templateRow(page, "1").innerText(), XSS);
      assert.is(await page.evaluate("window.__xss"), undefined);
      assert.is(await page.locator("img[src=x]").count(), 0);
      assert.is(await page.getByRole("button", { name: /^Buy template/ }).count(), 0);
      // Licences of an address, read without a wallet; a bad address is refused with its code.
      const form = section(page, "Licences").getByRole("form", { name: "Look up the licences of an address" });
      await form.getByLabel("Address").fill("0x1234");
      await form.getByRole("button", { name: "Show licences" }).click();
      await section(page, "Licences").getByRole("alert").getByText("VALIDATION_FAILED").waitFor();
      await form.getByLabel("Address").fill(accounts[3]!);
      await form.getByRole("button", { name: "Show licences" }).click();
      await section(page, "Licences").getByText("holds no licence.").waitFor();
      assert.equal(describeViolations(await seriousViolations(page)), "");
    } finally {
      await page.context().close();
    }
  });

  t("with an injected wallet: connect, buy template 2 (the purchase request as the server prepared it), the licence and the install count follow", async () => {
    const buyer = accounts[2]!;
    const page = await openMarketplace(rig.h, { wallet: buyer });
    try {
      await page.getByRole("button", { name: "Connect wallet" }).click();
      await section(page, "Wallet").getByText(buyer).waitFor();
      await page.getByRole("button", { name: "Buy template 2 for 0.02 ETH" }).click();
      await section(page, "Templates").getByRole("status").getByText("Template 2: bought").waitFor({ timeout: 60_000 });
      const calls = (await page.evaluate("window.__walletCalls")) as { method: string; params: Record<string, string>[] }[];
      const sent = calls.find((call) => call.method === "eth_sendTransaction")!.params[0]!;
      assert.is(sent.from, buyer);
      assert.is(sent.to!.toLowerCase(), addresses.marketplace.toLowerCase());
      assert.is(BigInt(sent.value!), parseEther("0.02"));
      // purchase(templateId, maxPrice) with maxPrice = the listed price: never more than shown.
      assert.is(sent.data!.slice(0, 10), toFunctionSelector("function purchase(uint256 templateId, uint256 maxPrice)"));
      assert.is(BigInt(`0x${sent.data!.slice(10, 74)}`), 2n);
      assert.is(BigInt(`0x${sent.data!.slice(74, 138)}`), parseEther("0.02"));
      await section(page, "Licences").getByText("#2").waitFor();
      await templateRow(page, "2").getByRole("cell", { name: "1", exact: true }).waitFor();
    } finally {
      await page.context().close();
    }
  });

  t("a licensed pack installs with the wallet's signature over the server's challenge, and shows its approval", async () => {
    const holder = accounts[3]!;
    const page = await openMarketplace(rig.h, { wallet: holder });
    try {
      await page.getByRole("button", { name: "Connect wallet" }).click();
      // Not licensed yet: the server refuses with its code.
      await page.getByRole("button", { name: "Install pack research with the wallet's licence" }).click();
      await section(page, "Licensed packs").getByRole("alert").getByText("LICENSE_REQUIRED").waitFor();
      await page.getByRole("button", { name: "Buy template 1 for 0.01 ETH" }).click();
      await section(page, "Templates").getByRole("status").getByText("Template 1: bought").waitFor({ timeout: 60_000 });
      await page.getByRole("button", { name: "Install pack research with the wallet's licence" }).click();
      const link = section(page, "Licensed packs").getByRole("link", { name: /^Open approval / });
      await link.waitFor();
      const id = (await link.getAttribute("href"))!.replace("/console/approvals/", "");
      assert.is((await rig.h.json(`/api/approvals/${id}`)).status, 200);
      await section(page, "Licensed packs").getByText("installed", { exact: true }).waitFor();
    } finally {
      await page.context().close();
    }
  });

  t("a Muster without a marketplace chain says so with the code", async () => {
    const page = await openMarketplace(bare);
    try {
      await section(page, "Templates").getByRole("alert").getByText("AGENTS_MARKETPLACE_NOT_CONFIGURED").waitFor();
    } finally {
      await page.context().close();
    }
  });

  t("at 390 px wide the page does not scroll sideways", async () => {
    const page = await openMarketplace(rig.h, { viewport: { width: 390, height: 800 } });
    try {
      await templateRow(page, "1").waitFor();
      assert.ok((await page.evaluate("document.documentElement.scrollWidth")) as number <= 390);
    } finally {
      await page.context().close();
    }
  });
}

t.run();
