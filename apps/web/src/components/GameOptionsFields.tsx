import { useState } from 'react';
import { useTranslation } from 'react-i18next';
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
  const { t } = useTranslation('game');
  return family === 'contract' ? (
    <>
      <label htmlFor={`${idPrefix}-quotas`}>{t('options.mizerkaQuotas')}</label>
      <select id={`${idPrefix}-quotas`} value={options.mizerkaQuotas} onChange={(e) => options.setMizerkaQuotas(e.target.value)}>
        <option value="reversed">{t('options.quotasReversed')}</option>
        <option value="same">{t('options.quotasSame')}</option>
      </select>
    </>
  ) : (
    <>
      <label htmlFor={`${idPrefix}-target`}>{t('options.target')}</label>
      <input id={`${idPrefix}-target`} type="number" min={1} max={10000} value={options.target} onChange={(e) => options.setTarget(Number(e.target.value))} />
      <label className="inline">
        <input type="checkbox" checked={options.doubleMisere} onChange={(e) => options.setDoubleMisere(e.target.checked)} /> {t('options.doubleMisere')}
      </label>
    </>
  );
}

/** The move clock. */
export function TimeControlFields({ idPrefix, options }: { idPrefix: string; options: GameOptions }) {
  const { t } = useTranslation('game');
  return (
    <fieldset>
      <legend>{t('options.timeControl')}</legend>
      <label className="inline">
        <input type="checkbox" checked={options.timed} onChange={(e) => options.setTimed(e.target.checked)} /> {t('options.moveClock')}
      </label>
      {options.timed && (
        <>
          <label htmlFor={`${idPrefix}-move`}>{t('options.moveMinutes')}</label>
          <input id={`${idPrefix}-move`} type="number" min={1} max={20160} value={options.moveMinutes} onChange={(e) => options.setMoveMinutes(Number(e.target.value))} />
          <label htmlFor={`${idPrefix}-bank`}>{t('options.bankMinutes')}</label>
          <input id={`${idPrefix}-bank`} type="number" min={0} max={20160} value={options.bankMinutes} onChange={(e) => options.setBankMinutes(Number(e.target.value))} />
          <label htmlFor={`${idPrefix}-timeout`}>{t('options.onTimeout')}</label>
          <select id={`${idPrefix}-timeout`} value={options.onTimeout} onChange={(e) => options.setOnTimeout(e.target.value as TimeoutPolicy)}>
            <option value="autoMove">{t('options.autoMove')}</option>
            <option value="forfeit">{t('options.forfeit')}</option>
          </select>
        </>
      )}
    </fieldset>
  );
}
