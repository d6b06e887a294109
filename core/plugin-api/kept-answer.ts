// An answer a route keeps and gives to many requests until what it shows changes (agent
// health over 2,000 sessions: 28 kB of JSON whose serialisation was half of each answer's
// CPU). The host sends the text made here instead of serialising the object again.

const texts = new WeakMap<object, string>();

/**
 * Serialises `answer` now, once: whenever a route returns this very object, the host answers
 * with this text. The answer is what `answer` holds at this call; to answer something else,
 * build a new object and keep that one (the old text goes with the old object).
 * @example
 * if (kept?.entries !== entries) kept = { entries, answer: keptAnswer({ ok: true, agents: entries }) };
 * return kept.answer;
 */
export function keptAnswer<T extends object>(answer: T): T {
  texts.set(answer, JSON.stringify(answer));
  return answer;
}

/** The text `keptAnswer` made of `answer`, or undefined when it was not kept. */
export function keptAnswerText(answer: object): string | undefined {
  return texts.get(answer);
}
