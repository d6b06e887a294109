// Who a name means. Names are free text typed by people and agents, so two spellings of one
// name must compare equal (`odin`, `ODIN`, `ｏｄｉｎ`, `odin` + zero-width space), or the
// requester≠decider rule could be passed by retyping a name.

/**
 * Characters that change how a name looks without changing what it says: format characters
 * (Cf: zero-width spaces and joiners, bidi marks, soft hyphen, BOM, word joiner, invisible
 * operators), every space and line/paragraph separator (Zs, Zl, Zp, `\s`), the Mongolian
 * vowel separator U+180E, which older Unicode versions listed as a space, and every other
 * default-ignorable code point (rendered as nothing although not Cf: the combining grapheme
 * joiner U+034F, variation selectors, Hangul fillers).
 */
const INVISIBLE = /[\p{Cf}\p{Zs}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\s\u200B-\u200F\u2060-\u2064\uFEFF\u00AD\u180E]/gu;

/**
 * The comparison key of a person's name: NFKC (full-width and compatibility forms become
 * their plain letters), then every invisible or space character removed, then lower-cased.
 *
 * Deliberately not folded: letters of other scripts that merely look alike (Cyrillic `о`,
 * Turkish dotless `ı`, `İ`, which lower-cases to `i` + U+0307). `odın` is another name than
 * `odin`; since only configured names may decide, a look-alike decides only if it was
 * configured itself.
 */
export function personKey(name: string): string {
  return name.normalize("NFKC").replace(INVISIBLE, "").toLowerCase();
}

/** The configured humans who may decide approvals: the owner first, then the approvers, by key (first spelling wins). */
export class Deciders {
  private readonly byKey = new Map<string, string>();

  constructor(owner: string, approvers: readonly string[]) {
    for (const name of [owner, ...approvers]) {
      const key = personKey(name);
      if (key && !this.byKey.has(key)) this.byKey.set(key, name);
    }
  }

  /** The configured spelling of the human `name` means, or undefined when it is nobody configured. */
  find(name: string): string | undefined {
    return this.byKey.get(personKey(name));
  }
}
