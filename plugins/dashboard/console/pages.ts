// The pages plugins contribute (GET /dashboard/pages), loaded once for the navigation.
import { muster } from "./client.ts";

export type ListedPage = Awaited<ReturnType<typeof muster.getDashboardPages>>["pages"][number];
export type ListedPanel = Awaited<ReturnType<typeof muster.getDashboardPanels>>["panels"][number];

export const GROUP_TITLES: Record<string, string> = { crew: "Crew", work: "Work", knowledge: "Knowledge", outside: "Outside", settings: "Settings" };
