import { useEffect, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, describeError, request, subscribe } from '../api';
import {
  BlockPlayerDocument,
  ChatMessagesDocument,
  GameChatDocument,
  LobbyChatDocument,
  MuteChatPlayerDocument,
  ReportChatMessageDocument,
  SendChatMessageDocument,
  type ChatMessageFieldsFragment,
  type ChatRoom,
} from '../gql/graphql';
import { useSession } from '../session';
import { ErrorText } from '../ui';

const MAX_CHARS = 500;
const PAGE = 50;
/** Only these become links; anything else (javascript:, data:, …) stays text. */
const LINK = /\bhttps?:\/\/[^\s<>"]+/g;

/**
 * A message as text: React escapes it, so markup shows as the characters it is. Web addresses are
 * shown as links that open in a new tab, marked nofollow and without an opener; nothing is
 * followed or fetched on its own (no previews).
 */
export function ChatText({ text }: { text: string }) {
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(LINK)) {
    const start = match.index;
    if (start > last) parts.push(text.slice(last, start));
    parts.push(
      <a key={start} href={match[0]} rel="nofollow noopener noreferrer ugc" target="_blank">
        {match[0]}
      </a>,
    );
    last = start + match[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return <span className="chat-text">{parts}</span>;
}

type ChatTable = { gameId: string } | { lobbyId: string };

/**
 * A table's talk: the seats' room for the players, the spectators' room (and, when the host
 * allowed it, the players' one to read) for the others. Live through the gameChat/lobbyChat
 * subscription, resumed from the last message loaded; older pages on demand.
 */
export function ChatPanel({ table, seated }: { table: ChatTable; seated: boolean }) {
  const { t } = useTranslation('chat');
  const rooms: ChatRoom[] = seated ? ['players'] : ['spectators', 'players'];
  const [room, setRoom] = useState<ChatRoom>(rooms[0]);
  const key = 'gameId' in table ? `g${table.gameId}` : `l${table.lobbyId}`;
  return (
    <section aria-labelledby={`chat-title-${key}`} className="panel chat">
      <h2 id={`chat-title-${key}`}>{t('title')}</h2>
      {rooms.length > 1 && (
        <div role="tablist" aria-label={t('rooms')} className="chat-rooms">
          {rooms.map((r) => (
            <button key={r} type="button" role="tab" aria-selected={room === r} onClick={() => setRoom(r)}>
              {r === 'players' ? t('players') : t('spectators')}
            </button>
          ))}
        </div>
      )}
      <ChatRoomView key={`${key}-${room}`} table={table} room={room} canWrite={seated ? room === 'players' : room === 'spectators'} />
    </section>
  );
}

function ChatRoomView({ table, room, canWrite }: { table: ChatTable; room: ChatRoom; canWrite: boolean }) {
  const { t } = useTranslation('chat');
  const session = useSession();
  const token = session.token!;
  const myName = session.name?.toLowerCase() ?? null;
  const [messages, setMessages] = useState<ChatMessageFieldsFragment[]>([]);
  const [older, setOlder] = useState<string | null>(null);
  const [loaded, setLoaded] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [hidden, setHidden] = useState<Set<string>>(new Set());
  const [draft, setDraft] = useState('');
  const [busy, setBusy] = useState(false);
  const [retry, setRetry] = useState(0);
  const tableId = 'gameId' in table ? table.gameId : table.lobbyId;
  const isGame = 'gameId' in table;
  // By value: a parent's new object for the same table must not restart the subscription.
  const tableVars = useMemo(() => (isGame ? { gameId: tableId } : { lobbyId: tableId }), [isGame, tableId]);

  const merge = (more: ChatMessageFieldsFragment[]) =>
    setMessages((now) => {
      const bySeq = new Map(now.map((m) => [m.seq, m]));
      for (const m of more) bySeq.set(m.seq, m);
      return [...bySeq.values()].sort((a, b) => a.seq - b.seq);
    });

  // The newest page, then live from its last message on.
  useEffect(() => {
    let stop: (() => void) | null = null;
    let gone = false;
    request(ChatMessagesDocument, { ...tableVars, room, first: PAGE }, token)
      .then(({ chatMessages }) => {
        if (gone) return;
        merge(chatMessages.messages);
        setOlder(chatMessages.hasMore ? chatMessages.nextCursor ?? null : null);
        setLoaded(true);
        setError(null);
        const after = chatMessages.messages[0]?.seq ?? 0;
        const handlers = {
          error: (e: ApiError) => {
            setError(describeError(e));
            if (e.code !== 'FORBIDDEN') setTimeout(() => setRetry((n) => n + 1), 3000);
          },
        };
        stop = isGame
            ? subscribe(GameChatDocument, { gameId: tableId, room, after }, token, { ...handlers, next: (d) => merge([d.gameChat]), resume: (d, v) => ({ ...v, after: d.gameChat.seq }) })
          : subscribe(LobbyChatDocument, { lobbyId: tableId, room, after }, token, { ...handlers, next: (d) => merge([d.lobbyChat]), resume: (d, v) => ({ ...v, after: d.lobbyChat.seq }) });
      })
      .catch((e: unknown) => {
        if (gone) return;
        setError(describeError(e));
        if (!(e instanceof ApiError && e.code === 'FORBIDDEN')) setTimeout(() => setRetry((n) => n + 1), 3000);
      });
    return () => {
      gone = true;
      stop?.();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [tableVars, room, token, retry]);

  const loadOlder = async () => {
    if (!older) return;
    try {
      const { chatMessages } = await request(ChatMessagesDocument, { ...tableVars, room, first: PAGE, after: older }, token);
      merge(chatMessages.messages);
      setOlder(chatMessages.hasMore ? chatMessages.nextCursor ?? null : null);
    } catch (e) {
      setError(describeError(e));
    }
  };

  const send = async (event: FormEvent) => {
    event.preventDefault();
    if (draft.trim() === '') return;
    setBusy(true);
    setError(null);
    try {
      const { sendChatMessage } = await request(SendChatMessageDocument, { input: { ...tableVars, room, body: draft } }, token);
      merge([sendChatMessage]);
      setDraft('');
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(false);
    }
  };

  const act = async (what: string, action: () => Promise<unknown>, hide?: string) => {
    try {
      await action();
      if (hide) setHidden((now) => new Set([...now, hide]));
      setNotice(what);
    } catch (e) {
      setError(describeError(e));
    }
  };

  const shown = messages.filter((m) => !hidden.has(m.author.id));
  return (
    <div className="chat-room" data-room={room}>
      <ErrorText error={error} />
      {notice && (
        <p role="status" className="notice">
          {notice}
        </p>
      )}
      {older && (
        <button type="button" className="link" onClick={() => void loadOlder()}>
          {t('earlier')}
        </button>
      )}
      <ol className="chat-messages" aria-live="polite" aria-relevant="additions" data-loaded={loaded}>
        {shown.map((m) => {
          const mine = myName !== null && m.author.name.toLowerCase() === myName;
          return (
            <li key={m.seq} data-seq={m.seq}>
              <strong>{m.author.name}</strong>: <ChatText text={m.body} />
              {!mine && (
                <span className="chat-actions">
                  <button type="button" className="link" aria-label={t('muteLabel', { name: m.author.name })} onClick={() => void act(t('muted', { name: m.author.name }), () => request(MuteChatPlayerDocument, { playerId: m.author.id }, token), m.author.id)}>
                    {t('mute')}
                  </button>
                  <button
                    type="button"
                    className="link"
                    aria-label={t('blockLabel', { name: m.author.name })}
                    onClick={() => void act(t('blocked', { name: m.author.name }), () => request(BlockPlayerDocument, { playerId: m.author.id }, token), m.author.id)}
                  >
                    {t('block')}
                  </button>
                  <button
                    type="button"
                    className="link"
                    aria-label={t('reportLabel', { name: m.author.name })}
                    onClick={() => void act(t('reported'), () => request(ReportChatMessageDocument, { input: { ...tableVars, room, seq: m.seq } }, token))}
                  >
                    {t('report')}
                  </button>
                </span>
              )}
            </li>
          );
        })}
      </ol>
      {loaded && shown.length === 0 && <p className="muted">{t('none')}</p>}
      {canWrite && (
        <form onSubmit={(e) => void send(e)} className="chat-form">
          <label htmlFor={`chat-input-${room}`} className="visually-hidden">
            {t('message')}
          </label>
          <input id={`chat-input-${room}`} type="text" value={draft} maxLength={MAX_CHARS} onChange={(e) => setDraft(e.target.value)} autoComplete="off" placeholder={t('placeholder')} />
          <button type="submit" disabled={busy || draft.trim() === ''}>
            {t('send')}
          </button>
        </form>
      )}
    </div>
  );
}
