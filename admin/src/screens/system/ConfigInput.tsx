/** The input of one configuration field, by its declared type: text, number, yes/no, a choice, several choices, a secret. */
import { useTranslation } from 'react-i18next';
import type { Answer } from '../../api/client';

export type ConfigFieldData = Answer<'/api/rest/v2/configuration', 'get'>['sections'][number]['groups'][number]['fields'][number];

export function ConfigInput(props: {
  id: string;
  field: ConfigFieldData;
  value: string;
  disabled: boolean;
  invalid: boolean;
  describedBy: string;
  onChange: (v: string) => void;
}) {
  const { t } = useTranslation();
  const { field: f } = props;
  const common = {
    id: props.id,
    disabled: props.disabled,
    'aria-invalid': props.invalid || undefined,
    'aria-describedby': props.describedBy,
  };
  switch (f.type) {
    case 'boolean':
      return (
        <select {...common} value={props.value === '1' ? '1' : '0'} onChange={(e) => props.onChange(e.target.value)}>
          <option value="1">{t('common.yes')}</option>
          <option value="0">{t('common.no')}</option>
        </select>
      );
    case 'select':
      return (
        <select {...common} value={props.value} onChange={(e) => props.onChange(e.target.value)}>
          {!f.options?.some((o) => o.value === props.value) && <option value={props.value}>{props.value}</option>}
          {f.options?.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      );
    case 'multiselect': {
      const chosen = props.value.split(',').filter(Boolean);
      if (!f.options?.length) return <input {...common} type="text" value={props.value} onChange={(e) => props.onChange(e.target.value)} />;
      return (
        <select
          {...common}
          multiple
          size={Math.min(8, f.options.length)}
          value={chosen}
          onChange={(e) => props.onChange([...e.target.selectedOptions].map((o) => o.value).join(','))}
        >
          {f.options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      );
    }
    case 'text':
    case 'json':
      return <textarea {...common} rows={3} value={props.value} onChange={(e) => props.onChange(e.target.value)} />;
    case 'integer':
    case 'decimal':
      return (
        <input
          {...common}
          type="number"
          step={f.type === 'integer' ? 1 : 'any'}
          min={f.min}
          max={f.max}
          value={props.value}
          onChange={(e) => props.onChange(e.target.value)}
        />
      );
    case 'secret':
      return (
        <input
          {...common}
          type="password"
          autoComplete="new-password"
          placeholder={f.isSet ? t('system.config.secretKeep') : ''}
          value={props.value}
          onChange={(e) => props.onChange(e.target.value)}
        />
      );
    default:
      return (
        <input
          {...common}
          type={f.type === 'email' ? 'email' : f.type === 'url' ? 'url' : 'text'}
          value={props.value}
          onChange={(e) => props.onChange(e.target.value)}
        />
      );
  }
}
