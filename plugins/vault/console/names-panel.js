// The vault plugin's console panel (CONSOLE_PANELS): the stored secrets' names, categories
// and who stored them, from GET /api/vault. Values are never requested. Served by the
// dashboard; `kit` is its helpers.
export default function mountVaultPanel(element, { api, h }) {
  return async function refresh() {
    const { secrets } = await api.get("/api/vault");
    element.replaceChildren(
      h("p", { class: "hint" }, "Names only: values never leave the vault."),
      secrets.length === 0
        ? h("p", { class: "empty" }, "No secrets stored.")
        : h("ul", { class: "secrets" }, secrets.map((secret) => h("li", {}, h("code", {}, secret.name), h("span", { class: "badge" }, secret.category), h("span", { class: "meta" }, ` by ${secret.createdBy}`)))),
    );
  };
}
