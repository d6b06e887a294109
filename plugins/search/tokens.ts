import { token } from "@muster/plugin";
import type { SearchIndex } from "./services/search-index.ts";

/** The workspace full-text index. Depend on the `search` plugin to use it. */
export const SEARCH = token<SearchIndex>("search.index");
