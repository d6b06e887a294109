import { defineErrors } from "@muster/plugin";

/** The search plugin's error catalogue. */
export const searchErrors = defineErrors("search", {
  SEARCH_QUERY_TOO_SHORT: {
    status: 400,
    message: "q must contain at least 2 letters or digits (punctuation and spaces do not count)",
  },
  SEARCH_INDEX_UNAVAILABLE: {
    status: 503,
    message: "The search index is unavailable: {reason}",
  },
});
