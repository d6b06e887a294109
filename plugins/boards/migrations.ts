import { defineMigration } from "@muster/plugin";

export const migrations = [
  defineMigration({
    name: "001-boards",
    up: [
      `CREATE TABLE boards_boards (
        id TEXT PRIMARY KEY, name TEXT NOT NULL, description TEXT, type TEXT NOT NULL, columns TEXT NOT NULL,
        owner TEXT NOT NULL, squad TEXT, settings TEXT NOT NULL, version INTEGER NOT NULL,
        createdAt TEXT NOT NULL, updatedAt TEXT NOT NULL, archivedAt TEXT)`,
      `CREATE TABLE boards_cards (
        id TEXT PRIMARY KEY, boardId TEXT NOT NULL, title TEXT NOT NULL, description TEXT, "column" TEXT NOT NULL,
        position INTEGER NOT NULL, assignee TEXT, labels TEXT NOT NULL, priority TEXT NOT NULL, dueDate TEXT,
        checklist TEXT NOT NULL, attachments TEXT NOT NULL, parentCardId TEXT, storyId TEXT, epicId TEXT, sprintId TEXT,
        progress INTEGER NOT NULL, delegatedTo TEXT, delegatedFrom TEXT, createdBy TEXT NOT NULL,
        createdAt TEXT NOT NULL, updatedAt TEXT NOT NULL, completedAt TEXT, archivedAt TEXT)`,
      `CREATE TABLE boards_card_comments (
        id TEXT PRIMARY KEY, cardId TEXT NOT NULL, author TEXT NOT NULL, content TEXT NOT NULL,
        createdAt TEXT NOT NULL)`,
      `CREATE TABLE boards_card_history (
        id TEXT PRIMARY KEY, cardId TEXT NOT NULL, action TEXT NOT NULL, field TEXT,
        fromValue TEXT, toValue TEXT, by TEXT NOT NULL, at TEXT NOT NULL)`,
      "CREATE INDEX boards_boards_by_update ON boards_boards (updatedAt)",
      // A move counts a column's cards on the board and shifts the positions after a gap. The
      // index leaves position out on purpose: a shift then rewrites only the rows, not one index
      // entry per shifted card (the board view sorts by position itself).
      `CREATE INDEX boards_cards_by_column ON boards_cards (boardId, "column", archivedAt)`,
      "CREATE INDEX boards_cards_by_assignee ON boards_cards (assignee)",
      // Links are cleared when the story, epic or sprint is deleted: looked up by the linked id.
      "CREATE INDEX boards_cards_by_story ON boards_cards (storyId)",
      "CREATE INDEX boards_cards_by_epic ON boards_cards (epicId)",
      "CREATE INDEX boards_cards_by_sprint ON boards_cards (sprintId)",
      "CREATE INDEX boards_cards_by_delegated_from ON boards_cards (delegatedFrom)",
      // Every move writes a history row: one index only (a board's hard delete finds its rows by card).
      "CREATE INDEX boards_card_comments_by_card ON boards_card_comments (cardId, createdAt)",
      "CREATE INDEX boards_card_history_by_card ON boards_card_history (cardId, at)",
    ],
  }),
];
