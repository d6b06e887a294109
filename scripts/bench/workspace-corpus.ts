// The generated workspace of `bench:workspace`: deterministic markdown files of 1-3 KiB
// whose words follow a Zipf distribution over a 20,000-word lexicon.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";


/** mulberry32: small, fast, deterministic. */
export function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const VOCABULARY = `the of and to in is that for it as with was on be by this are at from or have an they which one you
had not but all were when we there can been has more if will would their what so about out up into them some could other
time these two may then do first any my now such like our over man me even most made after also did many before must
through back years where much your way well down should because each just those people how too little state good very
make world still own see men work long get here between both life being under never day same another know while last
might us great old year off come since against go came right used take three agent agents squad squads memory knowledge
deploy deployment release review approval approve approved reject rejected budget strategy roadmap sprint sprints epic
story stories task tasks board boards backlog blocker blocked escalation escalate owner lead leads tier persona personas
skill skills template templates pipeline pipelines content draft drafts publish publishing network social blockchain
contract contracts token tokens wallet gateway session sessions council memo insight insights report reports journal
transcription decision decisions architecture database index search query queries stream event events watcher file
files folder workspace project projects client clients customer customers market marketing campaign campaigns metric
metrics revenue growth launch launched feature features bug bugs fix fixed test tests testing coverage quality security
vault secret secrets encryption audit compliance policy policies incident incidents outage latency performance scaling
cluster kubernetes docker container containers server servers backend frontend design designer engineering engineer
research analysis analyst summary summaries meeting meetings notes note daily weekly monthly quarterly annual plan plans
planning goal goals objective objectives result results milestone milestones deadline deadlines risk risks mitigation
dependency dependencies integration integrations api endpoint endpoints schema schemas migration migrations refactor
documentation onboarding handbook guideline guidelines process processes workflow workflows automation autopilot cron
schedule scheduled job jobs retry timeout failure failures recovery backup restore snapshot monitoring alert alerts
dashboard analytics experiment experiments hypothesis feedback learning learnings correction praise pattern rule rules
negotiation partner partners vendor vendors invoice invoices payment payments pricing subscription license licenses
royalty marketplace creator creators community newsletter article articles post posts thread threads video podcast
interview hiring candidate candidates culture values mission vision quarter priority priorities urgent important`
  .split(/\s+/)
  .filter(Boolean);

/**
 * Real workspaces have tens of thousands of distinct words; after the real words come
 * deterministic pronounceable ones (names, jargon, identifiers) up to 20,000 in all.
 */
function buildLexicon(): string[] {
  const random = rng(42);
  const onsets = ["b", "c", "d", "f", "g", "h", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z", "br", "ch", "cl", "dr", "gr", "pl", "st", "tr", "sh", "th"];
  const vowels = ["a", "e", "i", "o", "u", "ai", "ea", "io", "ou"];
  const codas = ["", "", "n", "r", "s", "l", "t", "x", "nd", "st"];
  const words = new Set(VOCABULARY);
  while (words.size < 20_000) {
    const syllables = 2 + Math.floor(random() * 3);
    let w = "";
    for (let i = 0; i < syllables; i++) w += onsets[Math.floor(random() * onsets.length)]! + vowels[Math.floor(random() * vowels.length)]!;
    words.add(w + codas[Math.floor(random() * codas.length)]!);
  }
  return [...words];
}
export const LEXICON = buildLexicon();

/** Zipf (s = 1) rank: P(rank <= k) = ln k / ln N, so a few words dominate as in prose. */
export const zipf = (random: () => number, n: number, from = 0) => from + Math.min(n - from - 1, Math.floor(Math.exp(random() * Math.log(n - from)) - 1));

const LOCATIONS: [string, number][] = [
  ["memory", 0.2],
  ["company/knowledge_base", 0.3],
  ["projects", 0.1],
  ["personas", 0.05],
  ["skills", 0.15],
  ["squads", 0.2],
];

export function generateWorkspace(dir: string, files: number): { bytes: number } {
  const random = rng(20261121);
  const word = () => LEXICON[zipf(random, LEXICON.length)]!;
  const sentence = () => {
    const words = Array.from({ length: 6 + Math.floor(random() * 12) }, word);
    const text = words.join(" ");
    return `${text[0]!.toUpperCase()}${text.slice(1)}.`;
  };
  let bytes = 0;
  let made = 0;
  for (const [location, share] of LOCATIONS) {
    const count = location === LOCATIONS.at(-1)![0] ? files - made : Math.round(files * share);
    for (let i = 0; i < count; i++) {
      const folder = location === "projects" ? `projects/p${i % 20}/board` : location === "squads" ? `squads/s${i % 10}/a${i % 7}` : `${location}/g${i % 50}`;
      mkdirSync(join(dir, folder), { recursive: true });
      const target = 1024 + Math.floor(random() * 2048);
      let text = `# ${word()} ${word()} ${word()} ${i}\n\n`;
      while (Buffer.byteLength(text) < target) {
        const paragraph = Array.from({ length: 2 + Math.floor(random() * 4) }, sentence).join(" ");
        text += `${paragraph}\n\n`;
      }
      text = text.slice(0, target);
      writeFileSync(join(dir, folder, `${location.split("/").at(-1)}-${i}.md`), text);
      bytes += Buffer.byteLength(text);
    }
    made += count;
  }
  return { bytes };
}

