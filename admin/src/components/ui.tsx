/**
 * The pieces every screen is built from: page headings, errors from the API (at the field or as a message),
 * form fields whose constraints come from the API's request schemas, the warning before leaving unsaved changes,
 * and the store-view scope switch.
 */
import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';
import { useBlocker } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ApiError, api, unwrap } from '../api/client';
import requestSchemas from '../api/request-schemas.json';

export function PageHeader(props: { title: string; actions?: ReactNode; children?: ReactNode }) {
  return (
    <header className="page-header">
      <h1>{props.title}</h1>
      {props.children}
      {props.actions && <div className="page-actions">{props.actions}</div>}
    </header>
  );
}

/** An error shown as a message; nothing when there is none. */
export function ErrorNote({ error }: { error: unknown }) {
  const { t } = useTranslation();
  if (!error) return null;
  const message =
    error instanceof ApiError
      ? error.status === 403
        ? t('errors.forbidden')
        : error.message
      : error instanceof Error
        ? error.message
        : t('errors.unknown');
  return (
    <p className="error" role="alert">
      {message}
    </p>
  );
}

export function Notice({ children }: { children: ReactNode }) {
  return (
    <p className="notice" role="status">
      {children}
    </p>
  );
}

type SchemaProp = {
  type?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  enum?: string[];
};
const SCHEMAS = requestSchemas as Record<string, { required?: string[]; properties?: Record<string, SchemaProp> }>;

/**
 * The input constraints of a request field, from the API's schema of the operation's body: the browser checks
 * them at the field before anything is sent (the API checks again).
 */
export function constraints(operationId: string, field: string): InputHTMLAttributes<HTMLInputElement> {
  const s = SCHEMAS[operationId];
  const p = s?.properties?.[field];
  if (!p) return {};
  const out: InputHTMLAttributes<HTMLInputElement> = {};
  if (s.required?.includes(field)) out.required = true;
  if (p.minLength !== undefined) out.minLength = p.minLength;
  if (p.maxLength !== undefined) out.maxLength = p.maxLength;
  if (p.minimum !== undefined) out.min = p.minimum;
  if (p.maximum !== undefined) out.max = p.maximum;
  if (p.pattern !== undefined && p.type === 'string') out.pattern = p.pattern.replace(/^\^/, '').replace(/\$$/, '');
  return out;
}

/** The message of an API error that names `name` as its field. */
export function fieldError(error: unknown, name: string): string | undefined {
  return error instanceof ApiError && error.field === name ? error.message : undefined;
}

interface FieldProps {
  label: string;
  /** the request field: its schema constraints and the API's errors about it */
  name: string;
  operationId?: string;
  error?: unknown;
  hint?: string;
}

export function TextField({ label, name, operationId, error, hint, ...input }: FieldProps & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  const message = fieldError(error, name);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        {...(operationId ? constraints(operationId, name) : {})}
        {...input}
        aria-invalid={message ? true : undefined}
        aria-describedby={[message && `${id}-error`, hint && `${id}-hint`].filter(Boolean).join(' ') || undefined}
      />
      {hint && (
        <small id={`${id}-hint`} className="hint">
          {hint}
        </small>
      )}
      {message && (
        <small id={`${id}-error`} className="field-error">
          {message}
        </small>
      )}
    </div>
  );
}

export function TextArea({ label, name, error, hint, ...input }: FieldProps & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const id = useId();
  const message = fieldError(error, name);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        name={name}
        {...input}
        aria-invalid={message ? true : undefined}
        aria-describedby={message ? `${id}-error` : undefined}
      />
      {hint && <small className="hint">{hint}</small>}
      {message && (
        <small id={`${id}-error`} className="field-error">
          {message}
        </small>
      )}
    </div>
  );
}

export function SelectField({
  label,
  name,
  error,
  options,
  ...select
}: FieldProps & SelectHTMLAttributes<HTMLSelectElement> & { options: { value: string; label: string }[] }) {
  const id = useId();
  const message = fieldError(error, name);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        name={name}
        {...select}
        aria-invalid={message ? true : undefined}
        aria-describedby={message ? `${id}-error` : undefined}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {message && (
        <small id={`${id}-error`} className="field-error">
          {message}
        </small>
      )}
    </div>
  );
}

export function CheckboxField({ label, name, ...input }: { label: string; name: string } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <label className="checkbox">
      <input type="checkbox" name={name} {...input} />
      {label}
    </label>
  );
}

/** Asks before leaving a form with unsaved changes: another screen of the application, a reload or closing the tab. */
export function useUnsavedChanges(dirty: boolean): void {
  const { t } = useTranslation();
  useBlocker({ shouldBlockFn: () => dirty && !window.confirm(t('form.unsavedChanges')), enableBeforeUnload: () => dirty });
}

export interface StoreView {
  id: number;
  code: string;
  name: string;
}

/** The store views (for scope switches and filters), read once per session. */
export function useStoreViews(): StoreView[] {
  const q = useQuery({
    queryKey: ['stores'],
    queryFn: () => unwrap(api.GET('/api/rest/v2/stores')) as Promise<unknown>,
    staleTime: 5 * 60_000,
  });
  const data = q.data as { member?: StoreView[] } | StoreView[] | undefined;
  return (Array.isArray(data) ? data : (data?.member ?? [])).map((s) => ({ id: s.id, code: s.code, name: s.name }));
}

/** Chooses the store view values are read and written in: "" is the default scope (every store view). */
export function StoreScopeSwitch(props: { value: string; onChange: (code: string) => void }) {
  const { t } = useTranslation();
  const stores = useStoreViews();
  const id = useId();
  return (
    <div className="scope-switch">
      <label htmlFor={id}>{t('scope.label')}</label>
      <select id={id} value={props.value} onChange={(e) => props.onChange(e.target.value)}>
        <option value="">{t('scope.default')}</option>
        {stores.map((s) => (
          <option key={s.id} value={s.code}>
            {s.name}
          </option>
        ))}
      </select>
    </div>
  );
}

export function Spinner() {
  const { t } = useTranslation();
  return (
    <p className="loading" role="status">
      {t('common.loading')}
    </p>
  );
}
