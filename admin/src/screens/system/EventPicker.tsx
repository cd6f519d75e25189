/** The events of a subscription: every event (`*`), every event of a kind (`order.*`), or single events. */
import { useTranslation } from 'react-i18next';

export function EventPicker(props: {
  types: { type: string; description: string }[];
  value: string[];
  onChange: (v: string[]) => void;
  error?: string;
}) {
  const { t } = useTranslation();
  const kinds = [...new Set(props.types.map((e) => e.type.split('.')[0]))];
  const has = (p: string) => props.value.includes(p);
  const toggle = (p: string, on: boolean, drop: (x: string) => boolean = () => false) =>
    props.onChange(on ? [...props.value.filter((x) => !drop(x)), p] : props.value.filter((x) => x !== p));
  const every = has('*');
  return (
    <fieldset className="event-picker" aria-describedby={props.error ? 'events-error' : undefined}>
      <legend>{t('system.webhooks.events')}</legend>
      <label className="checkbox">
        <input type="checkbox" checked={every} onChange={(e) => props.onChange(e.target.checked ? ['*'] : [])} />
        {t('system.webhooks.everyEvent')}
      </label>
      {kinds.map((kind) => {
        const wildcard = `${kind}.*`;
        const all = every || has(wildcard);
        return (
          <fieldset key={kind} className="event-kind" disabled={every}>
            <legend>
              <label className="checkbox">
                <input
                  type="checkbox"
                  checked={all}
                  onChange={(e) => toggle(wildcard, e.target.checked, (x) => x.startsWith(`${kind}.`))}
                />
                {t('system.webhooks.everyEventOf', { kind })}
              </label>
            </legend>
            {props.types
              .filter((e) => e.type.startsWith(`${kind}.`))
              .map((e) => (
                <label key={e.type} className="checkbox" title={e.description}>
                  <input type="checkbox" checked={all || has(e.type)} disabled={all} onChange={(ev) => toggle(e.type, ev.target.checked)} />
                  <code>{e.type}</code>
                  <small className="sys-muted">{e.description}</small>
                </label>
              ))}
          </fieldset>
        );
      })}
      {props.error && (
        <small id="events-error" className="field-error">
          {props.error}
        </small>
      )}
    </fieldset>
  );
}
