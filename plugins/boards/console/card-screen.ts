// A card's page (/console/boards/<boardId>/<cardId>): its fields, a move to any column (with
// the comment some columns need), its checklist, comments, history, claim and delegation.
// Follows the card's own events, so a change made elsewhere shows up.
import { ActionButton, Badge, ErrorNote, Field, Form, PageHeader, Section, Time, html, muster, navigate, pageHref, useLive, useResource, useState } from "@muster/console";
import type { Board, CardDetail } from "./board-types.ts";

export function CardScreen({ boardId, cardId, board }: { boardId: string; cardId: string; board: Board | undefined }) {
  const detail = useResource(() => muster.getCardsById({ id: cardId }), { deps: [cardId] });
  const comments = useResource(() => muster.getCardsCommentsById({ id: cardId }).then((answer) => answer.comments), { deps: [cardId] });
  useLive(["boards.card.*"], (message) => {
    const payload = message.type === "event" ? (message.payload as { card?: { id?: string }; id?: string }) : undefined;
    if (message.type === "reconnected" || payload?.card?.id === cardId || payload?.id === cardId) {
      void detail.reload();
      void comments.reload();
    }
  });
  const back = html`<a class="button plain" href=${pageHref("boards", boardId)}>Back to the board</a>`;
  if (!detail.data) {
    return html`<${PageHeader} title="Card" actions=${back} />${detail.error ? html`<${ErrorNote} error=${detail.error} />` : html`<p class="meta">Loading the card…</p>`}`;
  }
  const { card, history } = detail.data;
  const columnName = (id: string | null) => board?.columns.find((column) => column.id === id)?.name ?? id ?? "—";
  return html`<${PageHeader} title=${card.title} description=${html`On ${board?.name ?? boardId}, in ${columnName(card.column)}`} actions=${back} />
    <div class="grid-2">
      <div class="stack">
        <${CardFacts} card=${card} />
        <${MoveCard} card=${card} board=${board} onMoved=${detail.reload} />
        <${Checklist} card=${card} onChanged=${detail.reload} />
        <${ClaimAndDelegate} card=${card} boardId=${boardId} onChanged=${detail.reload} />
      </div>
      <div class="stack">
        <${Section} title="Comments">
          <${ErrorNote} error=${comments.error} />
          ${comments.data?.length
            ? html`<ul class="comments">${comments.data.map((comment) => html`<li key=${comment.id}><p class="meta"><strong>${comment.author}</strong> · <${Time} when=${comment.createdAt} /></p><p class="comment-text">${comment.content}</p></li>`)}</ul>`
            : html`<p class="empty">No comments yet.</p>`}
          <${Form} label="Add a comment" submitLabel="Add comment" onSubmit=${async (fields: FormData) => {
            await muster.postCardsCommentsById({ id: card.id, body: { content: String(fields.get("content") ?? "") } });
            await comments.reload();
          }}>
            <${Field} label="Comment" name="content" as="textarea" rows=${3} required=${true} />
          <//>
        <//>
        <${Section} title="History">
          <ol class="card-history">
            ${history.map((entry) => html`<li key=${entry.id}>
              <${Badge} tone="info">${entry.action}<//> ${entry.field ? html`<code>${entry.field}</code>` : null}
              ${entry.from !== null || entry.to !== null ? html` ${entry.from ?? "—"} → ${entry.to ?? "—"}` : null}
              <span class="meta"> by ${entry.by}, <${Time} when=${entry.at} /></span>
            </li>`)}
          </ol>
        <//>
      </div>
    </div>`;
}

type Card = CardDetail["card"];

function CardFacts({ card }: { card: Card }) {
  const save = async (fields: FormData) => {
    const assignee = String(fields.get("assignee") ?? "").trim();
    await muster.patchCardsById({
      id: card.id,
      body: { title: String(fields.get("title") ?? ""), description: String(fields.get("description") ?? "") || null, assignee: assignee || null, priority: String(fields.get("priority")) as Card["priority"] },
    });
  };
  return html`<${Section} title="Card">
    <${Form} label="Edit the card" submitLabel="Save card" resetOnSuccess=${false} onSubmit=${save}>
      <${Field} label="Title" name="title" value=${card.title} required=${true} />
      <${Field} label="Description" name="description" as="textarea" rows=${3} value=${card.description ?? ""} />
      <${Field} label="Assignee" name="assignee" value=${card.assignee ?? ""} hint="An agent id; empty for nobody." />
      <${Field} label="Priority" name="priority" as="select" value=${card.priority} options=${["low", "medium", "high", "urgent"]} />
    <//>
    ${card.delegatedTo ? html`<p class="meta">Delegated to card <code>${card.delegatedTo}</code>.</p>` : null}
    ${card.delegatedFrom ? html`<p class="meta">Delegated from card <code>${card.delegatedFrom}</code>.</p>` : null}
  <//>`;
}

function MoveCard({ card, board, onMoved }: { card: Card; board: Board | undefined; onMoved: () => Promise<void> }) {
  const [approvalId, setApprovalId] = useState<string | undefined>(undefined);
  if (!board) return null;
  const move = async (fields: FormData) => {
    const comment = String(fields.get("comment") ?? "").trim();
    const answer = await muster.patchCardsById({ id: card.id, body: { column: String(fields.get("column")), ...(comment ? { comment } : {}) } });
    setApprovalId(answer.approval?.id);
    await onMoved();
  };
  return html`<${Section} title="Move">
    <${Form} label="Move the card" submitLabel="Move card" class="inline" resetOnSuccess=${false} onSubmit=${move}>
      <${Field} label="To column" name="column" as="select" value=${card.column} options=${board.columns.map((column) => ({ value: column.id, label: column.wipLimit ? `${column.name} (WIP ${column.wipLimit})` : column.name }))} />
      <${Field} label="Comment with the move" name="comment" hint=${board.settings.commentRequiredFor?.length ? `Needed to enter: ${board.settings.commentRequiredFor.join(", ")}` : "Optional"} />
    <//>
    ${approvalId ? html`<p class="notice">The move waits for a human: <a href=${pageHref("approvals", approvalId)}>open the approval</a>.</p>` : null}
  <//>`;
}

function Checklist({ card, onChanged }: { card: Card; onChanged: () => Promise<void> }) {
  const [error, setError] = useState<unknown>(undefined);
  const save = async (checklist: Card["checklist"]) => {
    setError(undefined);
    try {
      await muster.patchCardsById({ id: card.id, body: { checklist } });
      await onChanged();
    } catch (caught) {
      setError(caught);
    }
  };
  return html`<${Section} title="Checklist">
    ${card.checklist.length
      ? html`<ul class="checklist">${card.checklist.map((item, index) => html`<li key=${index}><label>
          <input type="checkbox" checked=${item.checked} onChange=${() => save(card.checklist.map((other, at) => (at === index ? { ...other, checked: !other.checked } : other)))} />
          ${item.text}</label></li>`)}</ul>`
      : html`<p class="empty">No checklist items.</p>`}
    <${ErrorNote} error=${error} />
    <${Form} label="Add a checklist item" submitLabel="Add item" class="inline" onSubmit=${async (fields: FormData) => {
      await muster.patchCardsById({ id: card.id, body: { checklist: [...card.checklist, { text: String(fields.get("text") ?? ""), checked: false }] } });
      await onChanged();
    }}>
      <${Field} label="New item" name="text" required=${true} />
    <//>
  <//>`;
}

function ClaimAndDelegate({ card, boardId, onChanged }: { card: Card; boardId: string; onChanged: () => Promise<void> }) {
  const boards = useResource(() => muster.getBoards().then((answer) => answer.boards.filter((board) => board.id !== boardId)));
  return html`<${Section} title="Claim and delegate">
    <${Form} label="Claim the card for an agent" submitLabel="Claim card" class="inline" onSubmit=${async (fields: FormData) => {
      await muster.postCardsClaimById({ id: card.id, body: { agentId: String(fields.get("agentId") ?? "") } });
      await onChanged();
    }}>
      <${Field} label="Agent" name="agentId" required=${true} hint=${card.assignee ? `Claimed by ${card.assignee}` : "The card is free"} />
    <//>
    ${boards.data?.length
      ? html`<${Form} label="Delegate the card to another board" submitLabel="Delegate card" onSubmit=${async (fields: FormData) => {
          const assignee = String(fields.get("assignee") ?? "").trim();
          const { delegatedCard } = await muster.postCardsDelegateById({ id: card.id, body: { boardId: String(fields.get("boardId")), ...(assignee ? { assignee } : {}) } });
          navigate(pageHref("boards", delegatedCard.boardId, delegatedCard.id));
        }}>
          <${Field} label="To board" name="boardId" as="select" options=${boards.data.map((board) => ({ value: board.id, label: board.name }))} />
          <${Field} label="Assignee there" name="assignee" hint="Empty for the board's lead." />
        <//>`
      : html`<p class="meta">No other board to delegate to.</p>`}
    <div class="form-actions">
      <${ActionButton} label="Archive card" tone="danger" confirm="Archive this card?" onAction=${async () => {
        await muster.deleteCardsById({ id: card.id });
        navigate(pageHref("boards", boardId));
      }} />
    </div>
  <//>`;
}
