// Councils (/console/councils, /console/councils/<id>): start one, follow its rounds, votes and
// outcome live, and reach the approval that ratifies an adopted proposal. docs/console/conversations.md.
import { html, useRoute, mountComponent, useStylesheet, PageHeader } from "@muster/console";
import { CouncilList } from "./council-list.ts";
import { CouncilDetail } from "./council-detail.ts";

useStylesheet("/dashboard/plugins/council/council.css");

function CouncilsPage() {
  const id = useRoute().rest[0];
  return html`<div>
    <${PageHeader} title="Councils" description="Agents deliberate in rounds and vote; an adopted proposal waits for your ratification." />
    ${id ? html`<${CouncilDetail} id=${id} />` : html`<${CouncilList} />`}
  </div>`;
}

export default mountComponent(CouncilsPage);
