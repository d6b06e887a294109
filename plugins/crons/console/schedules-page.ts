// The Schedules page (`/console/schedules`, group "work"): Muster's cron jobs. The list and the
// form that creates one; `/console/schedules/<jobId>` is one job with its runs. docs/console/schedules.md.
import { html, mountComponent, useRoute, useStylesheet } from "@muster/console";
import { ScheduleDetail } from "./schedule-detail.ts";
import { ScheduleList } from "./schedule-list.ts";

function SchedulesPage() {
  useStylesheet("/dashboard/plugins/crons/schedules.css");
  const jobId = useRoute().rest[0];
  return jobId ? html`<${ScheduleDetail} key=${jobId} jobId=${jobId} />` : html`<${ScheduleList} />`;
}

export default mountComponent(SchedulesPage);
