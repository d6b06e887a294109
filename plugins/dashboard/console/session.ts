// The browser session's CSRF secret (DESIGN §6). `/login?code=` redirects to `/#csrf=<secret>`:
// the secret is read from the fragment once, kept in this tab's sessionStorage, and removed
// from the address bar so it never stays in history, bookmarks or a copied link.
const KEY = "muster.csrf";
const listeners = new Set<() => void>();

/** Takes a secret from the URL fragment (if any). */
export function captureCsrf(): void {
  const match = /(?:^#|&)csrf=([A-Za-z0-9_-]{16,128})(?:&|$)/.exec(location.hash);
  if (location.hash.includes("csrf=")) history.replaceState(history.state, "", location.pathname + location.search);
  if (match?.[1]) sessionStorage.setItem(KEY, match[1]);
}

export function csrfSecret(): string | null {
  return sessionStorage.getItem(KEY);
}

export function signedIn(): boolean {
  return csrfSecret() !== null;
}

/** Forgets the secret once the server no longer knows the session (it restarted, or it expired). */
export function forgetCsrf(): void {
  sessionStorage.removeItem(KEY);
  for (const listener of listeners) listener();
}

/** Calls `listener` when the session is found gone; returns the unsubscribe. */
export function onSignedOut(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
