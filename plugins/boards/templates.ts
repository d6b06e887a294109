import type { BoardColumn, BoardSettings } from "./services/records.ts";

export interface BoardTemplate {
  id: string;
  name: string;
  description: string;
  type: "kanban" | "sprint" | "custom";
  columns: BoardColumn[];
  settings: BoardSettings;
}

/** The board templates of `GET /api/boards/templates`; `POST /api/boards { template }` starts from one. */
export const BOARD_TEMPLATES: readonly BoardTemplate[] = [
  {
    id: "kanban",
    name: "Kanban",
    description: "Backlog to done, with a WIP limit on work in progress",
    type: "kanban",
    columns: [
      { id: "backlog", name: "Backlog" },
      { id: "todo", name: "To do" },
      { id: "doing", name: "Doing", wipLimit: 5 },
      { id: "review", name: "Review", wipLimit: 5 },
      { id: "done", name: "Done" },
    ],
    settings: {},
  },
  {
    id: "sprint",
    name: "Sprint",
    description: "One sprint: committed work through testing to done",
    type: "sprint",
    columns: [
      { id: "sprint-backlog", name: "Sprint backlog" },
      { id: "in-progress", name: "In progress", wipLimit: 5 },
      { id: "testing", name: "Testing" },
      { id: "done", name: "Done" },
    ],
    settings: {},
  },
  {
    id: "content",
    name: "Content",
    description: "Ideas to published posts; publishing needs a human approval",
    type: "custom",
    columns: [
      { id: "ideas", name: "Ideas" },
      { id: "researching", name: "Researching" },
      { id: "writing", name: "Writing", wipLimit: 3 },
      { id: "review", name: "Review" },
      { id: "published", name: "Published" },
    ],
    settings: { requireApprovalFor: ["published"], commentRequiredFor: ["review"] },
  },
  {
    id: "support",
    name: "Support",
    description: "Incoming requests to resolved, with a comment on every resolution",
    type: "custom",
    columns: [
      { id: "new", name: "New" },
      { id: "triaged", name: "Triaged" },
      { id: "in-progress", name: "In progress", wipLimit: 5 },
      { id: "waiting", name: "Waiting on customer" },
      { id: "resolved", name: "Resolved" },
    ],
    settings: { commentRequiredFor: ["resolved"] },
  },
  {
    id: "blank",
    name: "Blank",
    description: "One column to start from",
    type: "custom",
    columns: [{ id: "todo", name: "To do" }],
    settings: {},
  },
];
