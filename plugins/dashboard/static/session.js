// The browser session's CSRF secret (DESIGN §6). `/login?code=` redirects to `/#csrf=<secret>`:
// the secret is read from the fragment once, kept in this tab's sessionStorage, and removed
// from the address bar so it never stays in history, bookmarks or a copied link.
const KEY = "muster.csrf";

/** Takes a secret from the URL fragment (if any) and answers whether this tab has one. */
export function captureCsrf() {
  const match = /(?:^#|&)csrf=([A-Za-z0-9_-]{16,128})(?:&|$)/.exec(location.hash);
  if (location.hash.includes("csrf=")) history.replaceState(null, "", location.pathname + location.search);
  if (match) sessionStorage.setItem(KEY, match[1]);
  return csrfSecret() !== null;
}

export function csrfSecret() {
  return sessionStorage.getItem(KEY);
}

/** Forgets the secret once the server no longer knows the session (it restarted, or it expired). */
export function forgetCsrf() {
  sessionStorage.removeItem(KEY);
}
