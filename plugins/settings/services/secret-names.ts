/**
 * Setting names that look like secrets, refused so secrets go to the vault: any name
 * containing token, secret, password, passwd, passphrase, credential, apikey / api_key /
 * api-key / api.key, private_key, or with a dot/underscore/dash-separated segment `key`
 * (`smtp.key`, `openai_key`). docs/settings.md lists it.
 */
const SECRET_NAME = /token|secret|passw(or)?d|passphrase|credential|api[_.-]?key|private[_.-]?key|(^|[_.-])key($|[_.-])/;

/** The part of the name that matched, or null when the name is fine. */
export function secretLike(key: string): string | null {
  return SECRET_NAME.exec(key)?.[0] ?? null;
}
