import type { TimeoutPolicy } from '../gql/graphql';

/** The rule options a lobby or a tournament sets for its games; `idPrefix` keeps the form's ids its own. */
export function RuleOptionsFields(props: {
  idPrefix: string;
  family: string | undefined;
  mizerkaQuotas: string;
  setMizerkaQuotas: (value: string) => void;
  target: number;
  setTarget: (value: number) => void;
  doubleMisere: boolean;
  setDoubleMisere: (value: boolean) => void;
}) {
  const { idPrefix } = props;
  return props.family === 'contract' ? (
    <>
      <label htmlFor={`${idPrefix}-quotas`}>Mizerka quotas</label>
      <select id={`${idPrefix}-quotas`} value={props.mizerkaQuotas} onChange={(e) => props.setMizerkaQuotas(e.target.value)}>
        <option value="reversed">reversed (default)</option>
        <option value="same">same as the suit contracts</option>
      </select>
    </>
  ) : (
    <>
      <label htmlFor={`${idPrefix}-target`}>Target score</label>
      <input id={`${idPrefix}-target`} type="number" min={1} max={10000} value={props.target} onChange={(e) => props.setTarget(Number(e.target.value))} />
      <label className="inline">
        <input type="checkbox" checked={props.doubleMisere} onChange={(e) => props.setDoubleMisere(e.target.checked)} /> Allow double misère
      </label>
    </>
  );
}

/** The move clock of a lobby's or a tournament's games. */
export function TimeControlFields(props: {
  idPrefix: string;
  timed: boolean;
  setTimed: (value: boolean) => void;
  moveMinutes: number;
  setMoveMinutes: (value: number) => void;
  bankMinutes: number;
  setBankMinutes: (value: number) => void;
  onTimeout: TimeoutPolicy;
  setOnTimeout: (value: TimeoutPolicy) => void;
}) {
  const { idPrefix } = props;
  return (
    <fieldset>
      <legend>Time control</legend>
      <label className="inline">
        <input type="checkbox" checked={props.timed} onChange={(e) => props.setTimed(e.target.checked)} /> Move clock
      </label>
      {props.timed && (
        <>
          <label htmlFor={`${idPrefix}-move`}>Minutes per move</label>
          <input id={`${idPrefix}-move`} type="number" min={1} max={20160} value={props.moveMinutes} onChange={(e) => props.setMoveMinutes(Number(e.target.value))} />
          <label htmlFor={`${idPrefix}-bank`}>Bank minutes per player</label>
          <input id={`${idPrefix}-bank`} type="number" min={0} max={20160} value={props.bankMinutes} onChange={(e) => props.setBankMinutes(Number(e.target.value))} />
          <label htmlFor={`${idPrefix}-timeout`}>At a time-out</label>
          <select id={`${idPrefix}-timeout`} value={props.onTimeout} onChange={(e) => props.setOnTimeout(e.target.value as TimeoutPolicy)}>
            <option value="autoMove">the server moves for the seat</option>
            <option value="forfeit">the seat forfeits</option>
          </select>
        </>
      )}
    </fieldset>
  );
}
