// The Marketplace page (`/console/marketplace`): templates on the marketplace chain with price
// and installs, the licences an address holds, buying with the browser's injected wallet
// (EIP-1193) when one is present, and installing a licensed pack with a signed proof.
import { html, mountComponent, useState, useStylesheet, ActionButton, PageHeader, Section } from "@muster/console";
import { connectAccounts, injectedWallet, walletErrorText } from "./wallet.ts";
import { LicencesSection, LicensedPacksSection, TemplatesSection } from "./marketplace-sections.ts";

function NoWallet() {
  return html`<div class="stack no-wallet">
    <p><strong>No wallet in this browser.</strong> The page reads the chain without one; buying needs a wallet extension (an
      EIP-1193 <code>window.ethereum</code>) or the command line.</p>
    <p>From a terminal, buy with the SDK (the walkthrough in <code>docs/marketplace.md</code>: <code>purchase({ templateId, maxPrice })</code>
      with the buyer's key), then install the licensed pack:</p>
    <pre class="output">MUSTER_WALLET_KEY=0x… muster packs install &lt;pack name&gt;</pre>
  </div>`;
}

function MarketplacePage() {
  useStylesheet("/dashboard/plugins/agents/crew.css");
  const wallet = injectedWallet();
  const [account, setAccount] = useState<string | undefined>(undefined);
  // Counts purchases made here, so the licences shown are read again after each.
  const [purchases, setPurchases] = useState(0);
  const connect = async () => {
    try {
      const accounts = await connectAccounts(wallet!);
      setAccount(accounts[0]);
    } catch (error) {
      throw new Error(walletErrorText(error));
    }
  };
  return html`<div class="page marketplace" data-page="marketplace">
    <${PageHeader} title="Marketplace" description="Agent templates on chain: price, installs, licences; buy with your wallet." />
    <div class="stack">
      <${Section} title="Wallet">
        ${!wallet
          ? html`<${NoWallet} />`
          : account
            ? html`<p role="status">Connected: <code>${account}</code></p>`
            : html`<${ActionButton} label="Connect wallet" tone="primary" onAction=${connect} />`}
      <//>
      <${Section} title="Templates"><${TemplatesSection} wallet=${wallet} account=${account} onBought=${() => setPurchases((n) => n + 1)} /><//>
      <div class="grid-2">
        <${Section} title="Licences"><${LicencesSection} account=${account} purchases=${purchases} /><//>
        <${Section} title="Licensed packs"><${LicensedPacksSection} wallet=${wallet} account=${account} /><//>
      </div>
    </div>
  </div>`;
}

export default mountComponent(MarketplacePage);
