// The SQL of card-store.ts: every statement bound by name, prepared once.
import type { Database } from "@muster/plugin";
import { Card } from "../entities/card.ts";
import { Positions } from "./positions.ts";

/** Every column of the card table, from the entity (quoted: `column` is an SQL keyword). */
const FIELDS = Object.keys(Card.meta.properties);
const CARD_COLUMNS = FIELDS.map((f) => `"${f}"`).join(", ");

/** The statements of the card store, prepared once per connection. */
export function prepareCardStatements(sql: Database["sql"]) {
  const byLink = (field: string) => sql.prepare(`SELECT ${CARD_COLUMNS} FROM boards_cards WHERE ${field} = ?`);
  return {
    positions: new Positions(sql),
    getCard: sql.prepare(`SELECT ${CARD_COLUMNS} FROM boards_cards WHERE id = ?`),
    getBoard: sql.prepare("SELECT id, columns, settings, archivedAt FROM boards_boards WHERE id = ?"),
    insertCard: sql.prepare(`INSERT INTO boards_cards (${CARD_COLUMNS}) VALUES (${FIELDS.map((f) => `@${f}`).join(", ")})`),
    updateCard: sql.prepare(
      `UPDATE boards_cards SET title = @title, description = @description, "column" = @column, position = @position, assignee = @assignee,
       labels = @labels, priority = @priority, dueDate = @dueDate, checklist = @checklist, attachments = @attachments,
       parentCardId = @parentCardId, storyId = @storyId, epicId = @epicId, sprintId = @sprintId, progress = @progress,
       delegatedTo = @delegatedTo, delegatedFrom = @delegatedFrom, updatedAt = @updatedAt, completedAt = @completedAt, archivedAt = @archivedAt
       WHERE id = @id`,
    ),
    bump: sql.prepare("UPDATE boards_boards SET version = version + 1 WHERE id = ?"),
    insertHistory: sql.prepare(
      "INSERT INTO boards_card_history (id, cardId, action, field, fromValue, toValue, by, at) VALUES (@id, @cardId, @action, @field, @fromValue, @toValue, @by, @at)",
    ),
    insertComment: sql.prepare("INSERT INTO boards_card_comments (id, cardId, author, content, createdAt) VALUES (@id, @cardId, @author, @content, @createdAt)"),
    // A deleted card's children, delegation partners keep no dangling id.
    clearCardLinks: sql.prepare(
      `UPDATE boards_cards SET parentCardId = CASE WHEN parentCardId = @id THEN NULL ELSE parentCardId END,
         delegatedTo = CASE WHEN delegatedTo = @id THEN NULL ELSE delegatedTo END,
         delegatedFrom = CASE WHEN delegatedFrom = @id THEN NULL ELSE delegatedFrom END
       WHERE parentCardId = @id OR delegatedTo = @id OR delegatedFrom = @id`,
    ),
    deleteCardHistory: sql.prepare("DELETE FROM boards_card_history WHERE cardId = ?"),
    deleteCardComments: sql.prepare("DELETE FROM boards_card_comments WHERE cardId = ?"),
    deleteCard: sql.prepare("DELETE FROM boards_cards WHERE id = ?"),
    byLink: { storyId: byLink("storyId"), epicId: byLink("epicId"), sprintId: byLink("sprintId") },
  };
}
