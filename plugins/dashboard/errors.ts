import { defineErrors } from "@muster/plugin";

/** Errors of the `dashboard` plugin. */
export const dashboardErrors = defineErrors("dashboard", {
  DASHBOARD_ASSET_NOT_FOUND: { status: 404, message: "The dashboard has no file named {file}" },
  DASHBOARD_PANEL_INVALID: { status: 500, message: 'Plugin "{plugin}" contributes the console panel "{id}": {reason}' },
  DASHBOARD_PAGE_INVALID: { status: 500, message: 'Plugin "{plugin}" contributes the console page "{id}": {reason}' },
  DASHBOARD_PAGE_NOT_FOUND: { status: 404, message: "The console has no page named {page}" },
});
