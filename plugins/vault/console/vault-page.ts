// The Vault page (`/console/vault`, group "settings"): the secrets' names and categories (never
// values unless revealed), add, update, delete (with a confirmation), reveal behind a
// confirmation and hidden again after a countdown (30 s; `?revealSeconds=` from 1 to 300
// changes it), and inject into child processes' environment. Reveal, delete and inject need the
// browser session; refusals show the API's code (VAULT_LOCKED, VAULT_SECRET_NOT_FOUND…).
import { html, muster, mountComponent, useResource, useRoute, useState, useStylesheet, ActionButton, DataTable, ErrorNote, Field, PageHeader, Section, Time, type Column } from "@muster/console";
import { VAULT_EVENTS, type Secret } from "./vault-data.ts";
import { AddSecretForm, InjectForm, UpdateSecretForm } from "./vault-forms.ts";
import { DEFAULT_REVEAL_SECONDS, RevealValue } from "./vault-reveal.ts";

function revealSeconds(query: URLSearchParams): number {
  const asked = Number(query.get("revealSeconds"));
  return Number.isInteger(asked) && asked >= 1 && asked <= 300 ? asked : DEFAULT_REVEAL_SECONDS;
}

function SecretActions({ secret, seconds, onChanged }: { secret: Secret; seconds: number; onChanged: () => void }) {
  const [editing, setEditing] = useState(false);
  const remove = async () => {
    await muster.deleteVault({ query: { name: secret.name } });
    onChanged();
  };
  return html`<div class="secret-actions">
    <${RevealValue} name=${secret.name} seconds=${seconds} />
    <button type="button" class="button plain" aria-expanded=${editing ? "true" : "false"} aria-label=${editing ? `Cancel update of ${secret.name}` : `Update ${secret.name}`} onClick=${() => setEditing(!editing)}>${editing ? "Cancel update" : "Update"}</button>
    <${ActionButton} label="Delete secret" tone="danger" ariaLabel=${`Delete secret ${secret.name}`} confirm=${`Delete ${secret.name}? Its value cannot be recovered.`} onAction=${remove} />
    ${editing
      ? html`<${UpdateSecretForm} secret=${secret} onDone=${() => {
          setEditing(false);
          onChanged();
        }} />`
      : null}
  </div>`;
}

function VaultPage() {
  useStylesheet("/dashboard/plugins/vault/vault.css");
  const seconds = revealSeconds(useRoute().query);
  const secrets = useResource(() => muster.getVault().then((answer) => answer.secrets), { events: VAULT_EVENTS });
  const [category, setCategory] = useState("");
  const [saved, setSaved] = useState<string | null>(null);
  const reload = () => void secrets.reload();
  const categories = [...new Set((secrets.data ?? []).map((secret) => secret.category))].sort();
  const shown = secrets.data?.filter((secret) => !category || secret.category === category);
  const columns: Column<Secret>[] = [
    { label: "Name", class: "c-name", render: (secret) => html`<code class="secret-name">${secret.name}</code>${secret.description ? html`<p class="meta description">${secret.description}</p>` : null}` },
    { label: "Category", class: "c-category", render: (secret) => html`<span class="badge">${secret.category}</span>` },
    { label: "Stored by", key: "createdBy", class: "c-stored-by" },
    { label: "Updated", class: "c-updated", render: (secret) => html`<${Time} when=${secret.updatedAt} />` },
    { label: "Last read", class: "c-last-read", render: (secret) => (secret.lastAccessedAt ? html`<${Time} when=${secret.lastAccessedAt} />` : html`<span class="meta">never</span>`) },
    { label: "Actions", class: "c-actions", render: (secret) => html`<${SecretActions} key=${secret.id} secret=${secret} seconds=${seconds} onChanged=${reload} />` },
  ];
  return html`<div class="page vault" data-page="vault">
    <${PageHeader} title="Vault" description="Encrypted secrets. The list shows names and categories only; a value is shown after you confirm, for ${seconds} seconds." />
    <div class="stack">
      <${Section} title="Secrets">
        <${ErrorNote} error=${secrets.error} />
        ${categories.length > 1
          ? html`<div class="toolbar"><${Field} label="Category" name="category" as="select" value=${category} onInput=${setCategory}
              options=${[{ value: "", label: "All categories" }, ...categories.map((one) => ({ value: one, label: one }))]} /></div>`
          : null}
        <${DataTable} caption="Secrets" captionHidden=${true} rows=${shown} rowKey=${(secret: Secret) => secret.id} columns=${columns} empty="No secrets stored." />
      <//>
      <div class="grid-2">
        <${Section} title="Add a secret">
          <${AddSecretForm} onSaved=${(name: string) => {
            setSaved(name);
            reload();
          }} />
          ${saved ? html`<p class="notice" role="status">${saved} saved.</p>` : null}
        <//>
        <${Section} title="Inject into child processes">
          <p class="meta">Puts a secret into the environment of the commands and tools Muster starts (never Muster's own), until Muster stops.</p>
          <${InjectForm} secrets=${secrets.data ?? []} />
        <//>
      </div>
    </div>
  </div>`;
}

export default mountComponent(VaultPage);
