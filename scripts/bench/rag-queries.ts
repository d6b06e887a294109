// The labelled set of `npm run bench:rag`: one short document per topic and one query per
// topic whose answer is that document. Queries reuse some of the document's words and
// paraphrase others, so neither pure word matching nor pure vectors find every answer.
export interface LabelledTopic {
  /** Workspace-relative path of the answer. */
  path: string;
  doc: string;
  query: string;
}

const T = (slug: string, doc: string, query: string): LabelledTopic => ({ path: `company/knowledge_base/${slug}.md`, doc, query });

export const TOPICS: LabelledTopic[] = [
  T("invoice-retries", "The invoice worker times out when the billing database is slow; we added three retries with backoff.", "billing job keeps timing out"),
  T("soil-sensors", "Soil moisture sensors in the greenhouse report every ten minutes over LoRa radio.", "greenhouse humidity probes"),
  T("hiring-backend", "We interview three backend engineers in December with a pairing exercise.", "recruiting server developers"),
  T("coffee-roast", "A light roast keeps the fruity acidity of Ethiopian coffee beans.", "roasting coffee beans flavour"),
  T("kite-festival", "The kite festival takes place on the northern beach in April; bring spare line.", "kite event on the beach"),
  T("tax-filing", "Quarterly VAT returns are filed by the accountant before the twentieth of the month.", "when is the VAT declaration due"),
  T("password-rotation", "Service account passwords rotate every ninety days through the vault.", "credential rotation schedule"),
  T("backup-restore", "Nightly database backups are restored weekly on a staging machine to prove they work.", "testing that backups can be restored"),
  T("onboarding-laptop", "New joiners receive a laptop with disk encryption and the VPN client preinstalled.", "equipment for new employees"),
  T("incident-pager", "The on-call engineer is paged when error rates exceed two percent for five minutes.", "who gets alerted on high error rate"),
  T("office-plants", "The office plants are watered on Mondays and Thursdays by the facilities team.", "watering schedule for plants"),
  T("release-train", "Mobile releases ship every second Tuesday after a regression pass on real devices.", "mobile app release cadence"),
  T("gdpr-requests", "Data deletion requests under GDPR are answered within thirty days by the privacy lead.", "handling user data erasure requests"),
  T("cdn-cache", "Static assets are cached at the CDN edge for one year with hashed file names.", "cache lifetime of static files"),
  T("bike-parking", "Secure bike parking is in the basement; the code changes each quarter.", "where to leave my bicycle"),
  T("solar-panels", "The roof solar panels produce about forty kilowatt hours on a sunny day.", "photovoltaic output of the roof"),
  T("feature-flags", "Feature flags are removed within two sprints of a full rollout to avoid dead code.", "cleaning up toggles after launch"),
  T("sourdough", "The sourdough starter is fed with rye flour twice a day and kept at room temperature.", "feeding the bread starter"),
  T("marathon-training", "The marathon plan builds weekly mileage by ten percent with a long run on Sundays.", "running plan for a marathon"),
  T("api-pagination", "List endpoints paginate with an opaque cursor and a limit of at most two hundred.", "how do list endpoints page results"),
  T("expense-policy", "Meals during travel are reimbursed up to forty euros per day with receipts.", "travel food reimbursement limit"),
  T("ssl-certificates", "TLS certificates renew automatically thirty days before they expire.", "automatic certificate renewal"),
  T("customer-churn", "Churn rose in the spring after the price increase for small teams.", "why did customers cancel subscriptions"),
  T("warehouse-inventory", "Warehouse inventory is counted by hand at the end of each quarter.", "stock counting in the depot"),
  T("podcast-recording", "Podcast episodes are recorded in the small studio with two dynamic microphones.", "recording setup for the show"),
  T("beekeeping", "The hives are inspected every week in summer for queen cells and varroa mites.", "checking beehives for mites"),
  T("translation-workflow", "Product strings are translated by freelancers through the localisation platform.", "localising the interface text"),
  T("database-migrations", "Schema migrations run before the new version starts and must be backward compatible.", "changing tables without downtime"),
  T("parental-leave", "Parental leave is sixteen weeks at full pay for every parent.", "paid leave for new parents"),
  T("carbon-footprint", "Our cloud carbon footprint halved after moving batch jobs to a hydro-powered region.", "reducing emissions of servers"),
  T("chess-club", "The lunchtime chess club meets on Wednesdays in the library room.", "board game group at lunch"),
  T("load-testing", "Load tests replay a day of production traffic at three times the rate.", "stress testing with recorded traffic"),
  T("vendor-contracts", "Vendor contracts above ten thousand euros need two signatures from directors.", "approval for large supplier agreements"),
  T("dark-mode", "Dark mode follows the operating system setting unless the user overrides it.", "night theme preference"),
  T("wine-cellar", "The wine cellar stays at twelve degrees with seventy percent humidity.", "storage temperature for wine"),
  T("email-deliverability", "Marketing email passes SPF and DKIM checks; bounces above five percent pause a campaign.", "newsletter messages landing in spam"),
  T("accessibility-audit", "The accessibility audit found missing labels on form fields and low contrast buttons.", "problems for screen reader users"),
  T("fleet-maintenance", "Delivery vans are serviced every fifteen thousand kilometres at the partner garage.", "servicing the delivery vehicles"),
  T("rate-limits", "Public API clients are limited to one hundred requests per minute per token.", "throttling of API callers"),
  T("team-offsite", "The team offsite is in the mountains in September with hiking and planning sessions.", "company retreat in autumn"),
  T("search-ranking", "Search results are ranked by BM25 with a boost for matches in the title.", "how results are ordered by relevance"),
  T("printer-jam", "When the third floor printer jams, open the rear tray and remove the paper slowly.", "fixing a paper jam"),
  T("bird-feeder", "The bird feeder attracts blue tits and robins in winter when filled with sunflower seeds.", "which birds come to the feeder"),
  T("log-retention", "Application logs are kept for thirty days and audit logs for seven years.", "how long are logs stored"),
  T("meeting-free-fridays", "Fridays are free of meetings so that people can focus on deep work.", "no meetings at the end of the week"),
  T("water-leak", "A water leak under the kitchen sink damaged the cupboard floor in March.", "plumbing problem in the kitchen"),
  T("open-source-policy", "Employees may contribute to open source projects on company time with a licence check.", "contributing to public repositories"),
  T("telescope", "The club telescope is a ten inch Dobsonian reserved through the booking sheet.", "borrowing the astronomy scope"),
  T("sales-pipeline", "The sales pipeline has forty qualified leads, mostly logistics companies.", "prospective customers in the funnel"),
  T("code-review", "Every change needs one approving review and green continuous integration before merge.", "rules for merging pull requests"),
  T("vaccination", "The clinic offers flu vaccination to staff every October at no cost.", "free flu shots for employees"),
  T("electric-charging", "Four electric car chargers in the car park are free for staff until nine in the morning.", "charging an EV at work"),
  T("jazz-night", "Jazz night at the canteen features a trio playing standards every last Thursday.", "live music evening"),
  T("dependency-updates", "Dependencies are updated weekly by a bot and merged after tests pass.", "automatic library upgrades"),
  T("climbing-wall", "The climbing wall has routes graded from four to seven and requires a harness check.", "bouldering and rope routes"),
];
