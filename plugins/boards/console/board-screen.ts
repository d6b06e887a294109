// One board: its columns side by side with their WIP limits, each column's cards (a page at a
// time, so a board of 1,000 cards stays quick), cards moved by dragging or by the "Move left" /
// "Move right" buttons, every move announced in a live region and every refusal shown with the
// API's code. Cards moved elsewhere (another browser, an agent) show up from the live stream.
import { ErrorNote, Field, Form, PageHeader, html, muster, pageHref, useEffect, useLayoutEffect, useLive, useRef, useResource, useState } from "@muster/console";
import { BoardColumnView } from "./board-column.ts";
import { CardScreen } from "./card-screen.ts";
import { withLiveCards, type CardChange } from "./live-cards.ts";
import type { Board, Card, Column } from "./board-types.ts";

/** What a card event changes on this board: the card as it now is, or the card gone. */
function cardChange(name: string, payload: { card?: Card; id?: string }): CardChange | undefined {
  if (name === "boards.card.deleted" && payload.id) return { gone: payload.id };
  if (!name.startsWith("boards.card.") || !payload.card || name === "boards.card.commented") return undefined;
  return payload.card.archivedAt ? { gone: payload.card.id } : { card: payload.card };
}

/** A move the page is making: a refusal keeps the code. */
interface MoveState {
  error?: unknown;
  announcement: string;
  approvalId?: string;
}

export function BoardScreen({ boardId, cardId }: { boardId: string; cardId?: string }) {
  // How many of this board's card events had arrived when each load was sent: a load sent after an
  // event was received answers from after that event's commit, so it already shows that change; a
  // load sent before may answer from before it, and must not draw the card back where it was.
  const received = useRef(0);
  const loaded = useResource(async () => ({ seen: received.current, view: await muster.getBoardsById({ id: boardId }) }), { deps: [boardId] });
  const view = { ...loaded, data: loaded.data?.view };
  // Only this board's events reload it (another board's moves are not this page's business);
  // a burst (an agent filing 50 cards) loads once.
  const settle = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(settle.current), []);
  // A card's event is drawn at once (live-cards.ts), over the board last loaded, until a load sent
  // after it lands.
  const [changes, setChanges] = useState<{ seq: number; change: CardChange }[]>([]);
  useLive(["boards.*"], (message) => {
    let concerned: string | undefined = boardId;
    if (message.type === "event") {
      const payload = message.payload as { card?: Card; board?: { id?: string }; boardId?: string; id?: string };
      concerned = payload.card?.boardId ?? payload.board?.id ?? payload.boardId ?? payload.id;
      const change = cardChange(message.name, payload);
      if (concerned === boardId && change) {
        const seq = ++received.current;
        const seen = loaded.data?.seen ?? 0;
        setChanges((current) => [...current.filter((entry) => entry.seq > seen), { seq, change }]);
      }
    } else if (message.type !== "reconnected") return;
    if (concerned !== boardId) return;
    clearTimeout(settle.current);
    settle.current = setTimeout(() => void view.reload(), 50);
  });
  const [move, setMove] = useState<MoveState>({ announcement: "" });

  // A keyboard move draws the card in another column (first from its live event, then from each
  // reload): its button gets the focus back on every such redraw until the move has settled, and
  // never afterwards (a later live event must not pull the focus from where the user went). A
  // layout effect: the focus is back in the same task that inserts the card, so no key press can
  // fall in between.
  const pendingFocus = useRef<{ cardId: string; control: "left" | "right"; column: string; settled: boolean } | undefined>(undefined);
  useLayoutEffect(() => {
    const focus = pendingFocus.current;
    if (!focus) return;
    const card = document.querySelector<HTMLElement>(`[data-column="${CSS.escape(focus.column)}"] [data-card-id="${CSS.escape(focus.cardId)}"]`);
    const target = card?.querySelector<HTMLElement>(`.move-${focus.control}`) ?? card?.querySelector<HTMLElement>("a");
    if (target && document.activeElement !== target) target.focus();
    if (target && focus.settled) pendingFocus.current = undefined;
  });

  if (cardId) return html`<${CardScreen} boardId=${boardId} cardId=${cardId} board=${view.data?.board} />`;
  if (!view.data) {
    return html`<${PageHeader} title="Board" />${view.error ? html`<${ErrorNote} error=${view.error} /><p><a href=${pageHref("boards")}>All boards</a></p>` : html`<p class="meta">Loading the board…</p>`}`;
  }
  const { board } = view.data;
  const seen = loaded.data?.seen ?? 0;
  const cards = withLiveCards(view.data.cards, changes.filter((entry) => entry.seq > seen).map((entry) => entry.change));

  const moveCard = async (card: Card, column: Column, position: number | undefined, focus?: { cardId: string; control: "left" | "right" }) => {
    if (card.column === column.id && position === undefined) return;
    setMove({ announcement: `Moving “${card.title}” to ${column.name}…` });
    pendingFocus.current = focus ? { ...focus, column: column.id, settled: false } : undefined;
    try {
      const answer = await muster.patchCardsById({ id: card.id, body: position === undefined ? { column: column.id } : { column: column.id, position } });
      if (answer.approval) {
        setMove({ announcement: `Moving “${card.title}” to ${column.name} needs a human approval: it waits in the inbox.`, approvalId: answer.approval.id });
      } else {
        setMove({ announcement: `Moved “${card.title}” to ${column.name}.` });
      }
      if (pendingFocus.current) pendingFocus.current.settled = true;
      await view.reload();
    } catch (error) {
      // Refused: the card stays where it was, and so does the focus on its button.
      if (pendingFocus.current) Object.assign(pendingFocus.current, { column: card.column, settled: true });
      setMove({ error, announcement: `“${card.title}” was not moved to ${column.name}.` });
    }
  };

  const addCard = async (fields: FormData) => {
    const column = String(fields.get("column") ?? "");
    await muster.postBoardsCardsById({ id: board.id, body: { title: String(fields.get("title") ?? ""), ...(column ? { column } : {}) } });
    await view.reload();
  };

  return html`<${PageHeader} title=${board.name} description=${board.description ?? `${cards.length} cards`}
      actions=${html`<a class="button plain" href=${pageHref("boards")}>All boards</a>`} />
    <${Form} label="Add a card" submitLabel="Add card" class="inline add-card" onSubmit=${addCard}>
      <${Field} label="Card title" name="title" required=${true} />
      <${Field} label="Column" name="column" as="select" options=${board.columns.map((column) => ({ value: column.id, label: column.name }))} />
    <//>
    <p class="visually-hidden" role="status" aria-live="polite" id="board-announcer">${move.announcement}</p>
    <${ErrorNote} error=${move.error} prefix=${move.announcement} />
    ${move.approvalId ? html`<p class="notice">The move waits for approval: <a href=${pageHref("approvals", move.approvalId)}>open the approval</a>.</p>` : null}
    <${ErrorNote} error=${view.error} prefix="Could not refresh the board." />
    <p class="meta board-help">Drag a card to another column, or use its “Move left” and “Move right” buttons; open a card for its comments, history and checklist.</p>
    <div class="kanban">
      ${board.columns.map(
        (column, index) => html`<${BoardColumnView} key=${column.id} board=${board as Board} column=${column}
          cards=${cards.filter((card) => card.column === column.id)}
          left=${board.columns[index - 1]} right=${board.columns[index + 1]}
          onMove=${moveCard} findCard=${(id: string) => cards.find((card) => card.id === id)} />`,
      )}
    </div>`;
}
