import { token } from "../../core/plugin-api/index.ts";
import type { SearchIndex } from "./services/search-index.ts";

/** The workspace full-text index. Depend on the `search` plugin to use it. */
export const SEARCH = token<SearchIndex>("search.index");
