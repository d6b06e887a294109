/**
 * English function words that are not indexed. They occur in nearly every file, so they
 * rank nothing, yet in prose the hundred most common words are close to half of all
 * tokens: indexing them cost more than half of the postings (and of the index's memory)
 * of a 10,000-file workspace. Queries drop them the same way ("the kestrel" finds kestrel).
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  `a about above after again all also am an and any are as at be because been before being below between both but by
  can could did do does doing down during each few for from further had has have having he her here hers herself him
  himself his how i if in into is it its itself just me more most my myself no nor not now of off on once only or other
  our ours ourselves out over own same she should so some such than that the their theirs them themselves then there
  these they this those through to too under until up us very was we were what when where which while who whom why will
  with would you your yours yourself yourselves`.split(/\s+/),
);
