// The four planning kinds and how each is listed, created and changed (PATCH takes the id in
// the body for these, unlike tasks).
import { muster } from "@muster/console";

/** What the planning table needs of any kind's record. */
export interface PlanningRecord {
  id: string;
  status: string;
  updatedAt: string;
  [field: string]: unknown;
}

export interface PlanningKind {
  id: string;
  title: string;
  singular: string;
  /** The work event family (`work.<event>.*`). */
  event: string;
  nameField: "name" | "title";
  statuses: readonly string[];
  extra: { label: string; key: string }[];
  list(): Promise<PlanningRecord[]>;
  create(name: string, status: string): Promise<unknown>;
  update(id: string, changes: Record<string, unknown>): Promise<unknown>;
}

type Body<M extends keyof typeof muster> = (typeof muster)[M] extends (args: { body: infer B }) => unknown ? B : never;

export const PLANNING_KINDS: readonly PlanningKind[] = [
  {
    id: "sprints", title: "Sprints", singular: "sprint", event: "sprint", nameField: "name",
    statuses: ["planning", "active", "completed"],
    extra: [{ label: "Starts", key: "startDate" }, { label: "Ends", key: "endDate" }],
    list: () => muster.getSprints(),
    create: (name, status) => muster.postSprints({ body: { name, status } as Body<"postSprints"> }),
    update: (id, changes) => muster.patchSprints({ body: { id, ...changes } as Body<"patchSprints"> }),
  },
  {
    id: "epics", title: "Epics", singular: "epic", event: "epic", nameField: "title",
    statuses: ["planning", "active", "done", "cancelled"],
    extra: [{ label: "Priority", key: "priority" }],
    list: () => muster.getEpics(),
    create: (title, status) => muster.postEpics({ body: { title, status } as Body<"postEpics"> }),
    update: (id, changes) => muster.patchEpics({ body: { id, ...changes } as Body<"patchEpics"> }),
  },
  {
    id: "stories", title: "Stories", singular: "story", event: "story", nameField: "title",
    statuses: ["backlog", "in_progress", "review", "done", "blocked"],
    extra: [{ label: "Points", key: "points" }, { label: "Assignee", key: "assignedTo" }],
    list: () => muster.getStories(),
    create: (title, status) => muster.postStories({ body: { title, status } as Body<"postStories"> }),
    update: (id, changes) => muster.patchStories({ body: { id, ...changes } as Body<"patchStories"> }),
  },
  {
    id: "projects", title: "Projects", singular: "project", event: "project", nameField: "name",
    statuses: ["active", "paused", "completed", "archived"],
    extra: [{ label: "Squad", key: "squad" }],
    list: () => muster.getProjects(),
    create: (name, status) => muster.postProjects({ body: { name, status } as Body<"postProjects"> }),
    update: (id, changes) => muster.patchProjects({ body: { id, ...changes } as Body<"patchProjects"> }),
  },
];
