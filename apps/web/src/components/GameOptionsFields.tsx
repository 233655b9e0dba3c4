import { useState } from 'react';
import type { TimeControlInput, TimeoutPolicy } from '../gql/graphql';

/** The rule options and move clock a lobby or a tournament sets for its games, as form state. */
export function useGameOptions() {
  const [mizerkaQuotas, setMizerkaQuotas] = useState('reversed');
  const [target, setTarget] = useState(300);
  const [doubleMisere, setDoubleMisere] = useState(false);
  const [timed, setTimed] = useState(false);
  const [moveMinutes, setMoveMinutes] = useState(1440);
  const [bankMinutes, setBankMinutes] = useState(0);
  const [onTimeout, setOnTimeout] = useState<TimeoutPolicy>('autoMove');
  return {
    mizerkaQuotas,
    setMizerkaQuotas,
    target,
    setTarget,
    doubleMisere,
    setDoubleMisere,
    timed,
    setTimed,
    moveMinutes,
    setMoveMinutes,
    bankMinutes,
    setBankMinutes,
    onTimeout,
    setOnTimeout,
    /** The options input of the preset's family (undefined: the bidding family's, as the form shows). */
    ruleOptions: (family: string | undefined) => (family === 'contract' ? { mizerkaQuotas } : { target, doubleMisere }),
    timeControl: (): TimeControlInput | null => (timed ? { moveSeconds: moveMinutes * 60, bankSeconds: bankMinutes * 60, onTimeout } : null),
  };
}
export type GameOptions = ReturnType<typeof useGameOptions>;

/** The rule options of the preset's family; `idPrefix` keeps the form's ids its own. */
export function RuleOptionsFields({ idPrefix, family, options }: { idPrefix: string; family: string | undefined; options: GameOptions }) {
  return family === 'contract' ? (
    <>
      <label htmlFor={`${idPrefix}-quotas`}>Mizerka quotas</label>
      <select id={`${idPrefix}-quotas`} value={options.mizerkaQuotas} onChange={(e) => options.setMizerkaQuotas(e.target.value)}>
        <option value="reversed">reversed (default)</option>
        <option value="same">same as the suit contracts</option>
      </select>
    </>
  ) : (
    <>
      <label htmlFor={`${idPrefix}-target`}>Target score</label>
      <input id={`${idPrefix}-target`} type="number" min={1} max={10000} value={options.target} onChange={(e) => options.setTarget(Number(e.target.value))} />
      <label className="inline">
        <input type="checkbox" checked={options.doubleMisere} onChange={(e) => options.setDoubleMisere(e.target.checked)} /> Allow double misère
      </label>
    </>
  );
}

/** The move clock. */
export function TimeControlFields({ idPrefix, options }: { idPrefix: string; options: GameOptions }) {
  return (
    <fieldset>
      <legend>Time control</legend>
      <label className="inline">
        <input type="checkbox" checked={options.timed} onChange={(e) => options.setTimed(e.target.checked)} /> Move clock
      </label>
      {options.timed && (
        <>
          <label htmlFor={`${idPrefix}-move`}>Minutes per move</label>
          <input id={`${idPrefix}-move`} type="number" min={1} max={20160} value={options.moveMinutes} onChange={(e) => options.setMoveMinutes(Number(e.target.value))} />
          <label htmlFor={`${idPrefix}-bank`}>Bank minutes per player</label>
          <input id={`${idPrefix}-bank`} type="number" min={0} max={20160} value={options.bankMinutes} onChange={(e) => options.setBankMinutes(Number(e.target.value))} />
          <label htmlFor={`${idPrefix}-timeout`}>At a time-out</label>
          <select id={`${idPrefix}-timeout`} value={options.onTimeout} onChange={(e) => options.setOnTimeout(e.target.value as TimeoutPolicy)}>
            <option value="autoMove">the server moves for the seat</option>
            <option value="forfeit">the seat forfeits</option>
          </select>
        </>
      )}
    </fieldset>
  );
}
