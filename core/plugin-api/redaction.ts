/**
 * Scrubbing secret values out of text that Muster stores or sends. Writers of agent-written
 * free text (activities, notifications, work records, chat) resolve `hostTokens.redaction`
 * and pass text through it before storing, so a secret an agent copies into a note is never
 * stored, listed or streamed. The host's service delegates to the backend a plugin provides
 * under `hostTokens.redactionBackend` (the vault: every stored secret value, and each string
 * inside a JSON credential); without one, text is returned unchanged (no secrets are known).
 * Going through the host keeps plugins independent: the vault depends on activities, so
 * activities could not depend on the vault.
 */
export interface TextRedactor {
  /** `text` with every known secret value replaced by `[redacted:<NAME>]`; fails closed. */
  redact(text: string): string;
}
