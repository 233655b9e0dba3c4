import { CardText } from './Hand';

interface TrickLike {
  leader: number;
  winner?: number | null;
  cards: readonly { seat: number; card: string }[];
}

/** A trick in play order: who played what, and who took it once it is complete. */
export function Trick({ trick, name }: { trick: TrickLike; name: (seat: number) => string }) {
  return (
    <>
      <ol className="trick">
        {trick.cards.map((played) => (
          <li key={played.seat} data-seat={played.seat}>
            <span className="who">{name(played.seat)}</span> <CardText card={played.card} />
          </li>
        ))}
      </ol>
      {trick.winner !== null && trick.winner !== undefined && <p>Taken by {name(trick.winner)}.</p>}
    </>
  );
}
