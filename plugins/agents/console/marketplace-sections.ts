// The Marketplace page's sections: templates (buy with the wallet), the licences an address
// holds, and the packs tied to a template (install with a licence proof the wallet signs).
import { html, muster, useResource, useState, ActionButton, Badge, DataTable, ErrorNote, Field, Form } from "@muster/console";
import { ApprovalNotice, type ApprovalRecord } from "./approval-notice.ts";
import { formatEther, sendPurchase, signTypedData, waitForReceipt, walletChainId, walletErrorText, type Eip1193Provider } from "./wallet.ts";

type Listing = Awaited<ReturnType<typeof muster.getMarketplaceTemplates>>;
type Template = Listing["templates"][number];
type Pack = Awaited<ReturnType<typeof muster.getPacks>>["packs"][number];

const short = (address: string) => `${address.slice(0, 6)}…${address.slice(-4)}`;

/** Runs a wallet step, turning its EIP-1193 refusal into a readable error. */
async function inWallet<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    throw new Error(walletErrorText(error));
  }
}

export function TemplatesSection({ wallet, account, onBought }: { wallet: Eip1193Provider | undefined; account: string | undefined; onBought: () => void }) {
  const listing = useResource(() => muster.getMarketplaceTemplates());
  const [sent, setSent] = useState<{ templateId: string; hash: string; status?: string } | undefined>(undefined);
  const buy = async (template: Template) => {
    const chainId = await inWallet(() => walletChainId(wallet!));
    if (listing.data && chainId !== listing.data.chainId) throw new Error(`The wallet is on chain ${chainId}; the marketplace is on chain ${listing.data.chainId}. Switch the wallet's network first.`);
    const hash = await inWallet(() => sendPurchase(wallet!, account!, template.purchase));
    setSent({ templateId: template.id, hash });
    const receipt = await inWallet(() => waitForReceipt(wallet!, hash));
    setSent({ templateId: template.id, hash, status: receipt.status === "0x1" ? "bought" : "failed" });
    await listing.reload();
    onBought();
  };
  const action = (template: Template) => {
    if (!template.active) return html`<${Badge} tone="muted">inactive<//>`;
    if (!wallet) return html`<span class="meta">needs a wallet</span>`;
    if (!account) return html`<span class="meta">connect the wallet to buy</span>`;
    return html`<${ActionButton} label="Buy" ariaLabel=${`Buy template ${template.id} for ${formatEther(template.price)} ETH`} tone="primary" onAction=${() => buy(template)} />`;
  };
  return html`<${ErrorNote} error=${listing.error} />
    ${listing.data ? html`<p class="meta">Chain ${listing.data.chainId} · ${listing.data.total} templates · marketplace <code>${listing.data.addresses.marketplace ?? ""}</code></p>` : null}
    <${DataTable} caption="Templates" captionHidden=${true} rows=${listing.error ? [] : listing.data?.templates} rowKey=${(t: Template) => t.id} pageSize=${25}
      empty=${listing.error ? "The chain could not be read." : "No templates on this marketplace yet."}
      columns=${[
        { label: "Template", render: (t: Template) => html`<strong>#${t.id}</strong> <span class="meta">${t.metadataURI}</span>` },
        { label: "Price", render: (t: Template) => `${formatEther(t.price)} ETH` },
        { label: "Installs", key: "installs" },
        { label: "Creator", render: (t: Template) => html`<code title=${t.creator}>${short(t.creator)}</code>` },
        { label: "Buy", render: action },
      ]} />
    ${sent
      ? html`<p class="notice purchase-state" role="status">Template ${sent.templateId}: ${sent.status ?? "sent, waiting to be mined"} · transaction <code>${sent.hash}</code></p>`
      : null}`;
}

export function LicencesSection({ account, purchases }: { account: string | undefined; purchases: number }) {
  const [holder, setHolder] = useState<string | undefined>(undefined);
  const shown = holder ?? account;
  const licences = useResource(() => (shown ? muster.getMarketplaceLicences({ query: { holder: shown } }) : Promise.resolve(undefined)), { deps: [shown, purchases] });
  return html`<${Form} label="Look up the licences of an address" submitLabel="Show licences" resetOnSuccess=${false} onSubmit=${(fields: FormData) => setHolder(String(fields.get("holder") ?? "").trim())} class="inline">
      <${Field} label="Address" name="holder" value=${shown ?? ""} required=${true} placeholder="0x…" autocomplete="off" />
    <//>
    <${ErrorNote} error=${licences.error} />
    ${licences.data
      ? html`<p class="licences" role="status">${licences.data.templateIds.length
          ? html`<code>${short(licences.data.holder)}</code> holds licences for templates ${licences.data.templateIds.map((id) => html`<${Badge} tone="ok">#${id}<//> `)}`
          : html`<code>${short(licences.data.holder)}</code> holds no licence.`}</p>`
      : null}`;
}

export function LicensedPacksSection({ wallet, account }: { wallet: Eip1193Provider | undefined; account: string | undefined }) {
  const packs = useResource(() => muster.getPacks(), { events: ["agents.*"] });
  const [done, setDone] = useState<{ name: string; approval: ApprovalRecord } | undefined>(undefined);
  const install = async (pack: Pack) => {
    const { challenge } = await muster.postPacksLicenceChallenge({ body: { name: pack.name, holder: account! } });
    const signature = await inWallet(() => signTypedData(wallet!, account!, challenge.typedData));
    const result = await muster.postPacks({ body: { name: pack.name, buyer: account!, proof: { nonce: challenge.nonce, expiresAt: challenge.expiresAt, signature } } });
    setDone({ name: pack.name, approval: result.approval });
    await packs.reload();
  };
  const licensed = packs.data?.packs.filter((pack) => pack.templateId !== null);
  return html`<${ErrorNote} error=${packs.error} />
    <${DataTable} caption="Licensed packs" captionHidden=${true} rows=${licensed} rowKey=${(p: Pack) => p.name} empty="No pack in the workspace is tied to a marketplace template."
      columns=${[
        { label: "Pack", render: (p: Pack) => html`<strong>${p.name}</strong> <span class="meta">${p.version}</span>` },
        { label: "Template", render: (p: Pack) => `#${p.templateId}` },
        {
          label: "Install",
          render: (p: Pack) =>
            p.installed
              ? html`<${Badge} tone="ok">installed<//>`
              : wallet && account
                ? html`<${ActionButton} label="Install with licence" ariaLabel=${`Install pack ${p.name} with the wallet's licence`} tone="primary" onAction=${() => install(p)} />`
                : html`<span class="meta">needs a connected wallet</span>`,
        },
      ]} />
    <${ApprovalNotice} approval=${done?.approval} what=${`Pack ${done?.name ?? ""} was installed with the wallet's licence.`} />`;
}
