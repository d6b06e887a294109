// Squad packs (packs/*.json in the workspace): what each holds, and installing one, which
// writes its agents and asks for the agents.register approval. A pack tied to a marketplace
// template needs a signed licence proof: the Marketplace page does that with a wallet.
import { html, muster, useResource, useState, ActionButton, Badge, DataTable, ErrorNote, pageHref } from "@muster/console";
import { ApprovalNotice, type ApprovalRecord } from "./approval-notice.ts";

type Pack = Awaited<ReturnType<typeof muster.getPacks>>["packs"][number];

export function PacksSection({ onInstalled }: { onInstalled: () => void }) {
  const packs = useResource(() => muster.getPacks(), { events: ["agents.*"] });
  const [installed, setInstalled] = useState<{ name: string; approval: ApprovalRecord } | undefined>(undefined);
  const install = async (pack: Pack) => {
    const result = await muster.postPacks({ body: { name: pack.name } });
    setInstalled({ name: pack.name, approval: result.approval });
    await packs.reload();
    onInstalled();
  };
  const action = (pack: Pack) => {
    if (pack.installed) return html`<${Badge} tone="ok">installed<//>`;
    if (pack.templateId) return html`<a href=${pageHref("marketplace")} aria-label=${`Install ${pack.name} with a licence (Marketplace)`}>Licence needed (template ${pack.templateId})</a>`;
    return html`<${ActionButton} label="Install" ariaLabel=${`Install pack ${pack.name}`} tone="primary" onAction=${() => install(pack)} />`;
  };
  return html`<div class="stack">
    <${ErrorNote} error=${packs.error} />
    <${DataTable}
      caption="Squad packs"
      captionHidden=${true}
      rows=${packs.data?.packs}
      rowKey=${(pack: Pack) => pack.name}
      empty="No packs: put pack files under packs/ in the workspace."
      columns=${[
        { label: "Pack", render: (pack: Pack) => html`<strong>${pack.name}</strong> <span class="meta">${pack.version}</span>` },
        { label: "Description", key: "description" },
        { label: "Agents", key: "agents" },
        { label: "Install", render: action },
      ]}
    />
    ${packs.data?.errors.length
      ? html`<ul class="pack-errors">${packs.data.errors.map((error) => html`<li><code>${error.file}</code>: ${error.reason}</li>`)}</ul>`
      : null}
    <${ApprovalNotice} approval=${installed?.approval} what=${`Pack ${installed?.name ?? ""} was installed in the workspace.`} />
  </div>`;
}
