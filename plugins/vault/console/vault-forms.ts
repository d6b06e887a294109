// The vault's forms: add a secret, replace a secret's value (same POST: an existing name is
// re-encrypted, 200), and inject a secret into the environment of the processes Muster starts
// (POST /api/vault/inject, session). Values are typed into password fields and never echoed.
import { html, muster, useState, Field, Form } from "@muster/console";
import type { Secret } from "./vault-data.ts";

const text = (fields: FormData, name: string) => String(fields.get(name) ?? "").trim();
const optional = (value: string) => (value === "" ? undefined : value);

export function AddSecretForm({ onSaved }: { onSaved: (name: string) => void }) {
  const add = async (fields: FormData) => {
    const name = text(fields, "name");
    await muster.postVault({ body: { name, value: String(fields.get("value") ?? ""), category: optional(text(fields, "category")), description: optional(text(fields, "description")) } });
    onSaved(name);
  };
  return html`<${Form} label="Add a secret" submitLabel="Add secret" onSubmit=${add}>
    <div class="grid-2">
      <${Field} label="Name" name="name" required=${true} placeholder="GITHUB_TOKEN" hint="Letters, digits, _ . - (at most 128); an existing name gets the new value." autocomplete="off" />
      <${Field} label="Value" name="value" type="password" required=${true} autocomplete="new-password" hint="Encrypted at once; never shown again unless revealed." />
      <${Field} label="Category" name="category" placeholder="api_key" hint="Letters, digits, _ . : - (default api_key)." />
      <${Field} label="Description (optional)" name="description" />
    </div>
  <//>`;
}

export function UpdateSecretForm({ secret, onDone }: { secret: Secret; onDone: () => void }) {
  const save = async (fields: FormData) => {
    await muster.postVault({ body: { name: secret.name, value: String(fields.get("value") ?? ""), category: optional(text(fields, "category")), description: optional(text(fields, "description")) } });
    onDone();
  };
  return html`<${Form} label=${`Update ${secret.name}`} submitLabel=${`Save ${secret.name}`} class="update-secret" onSubmit=${save}>
    <${Field} label=${`New value of ${secret.name}`} name="value" type="password" required=${true} autocomplete="new-password" />
    <${Field} label="Category" name="category" value=${secret.category} />
    <${Field} label="Description" name="description" value=${secret.description ?? ""} />
  <//>`;
}

export function InjectForm({ secrets }: { secrets: readonly Secret[] }) {
  const [done, setDone] = useState<string | null>(null);
  const inject = async (fields: FormData) => {
    setDone(null);
    const answer = await muster.postVaultInject({ body: { name: text(fields, "name"), envVar: text(fields, "envVar") } });
    setDone(`${answer.name} is now ${answer.envVar} in the environment of the processes Muster starts (until it stops).`);
  };
  if (secrets.length === 0) return html`<p class="empty">Add a secret first.</p>`;
  return html`<${Form} label="Inject a secret" submitLabel="Inject secret" class="inline" onSubmit=${inject}>
    <${Field} label="Secret" name="name" as="select" options=${secrets.map((secret) => secret.name)} />
    <${Field} label="Environment variable" name="envVar" required=${true} placeholder="GITHUB_TOKEN" hint="Upper-case letters, digits, _; PATH, NODE_OPTIONS, LD_* and the like are refused." />
  <//>
  ${done ? html`<p class="notice" role="status">${done}</p>` : null}`;
}
