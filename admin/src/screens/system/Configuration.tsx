/**
 * Store configuration by section and scope: the default scope, a website or a store view. Each field shows the
 * value in effect and where it comes from; away from the default scope, "use the parent's value" inherits it
 * (the value stored at this scope is removed). One save writes every change of the section, all or nothing.
 */
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ApiError, api, unwrap, type Answer, type Row } from '../../api/client';
import { collection } from '../../api/lists';
import { useSession } from '../../auth/session';
import { ErrorNote, Notice, PageHeader, Spinner, useUnsavedChanges } from '../../components/ui';
import { ConfigInput, type ConfigFieldData } from './ConfigInput';
import './system.css';

export type Scope = 'default' | 'websites' | 'stores';
export interface ConfigSearch {
  section?: string;
  scope?: Scope;
  scopeId?: number;
}

type Store = Row<'/api/rest/v2/stores'>;
type ConfigurationAnswer = Answer<'/api/rest/v2/configuration', 'get'>;

interface FieldDraft {
  inherit: boolean;
  value: string;
}

/** The websites and store views to choose a scope from. */
function useScopes() {
  return useQuery({
    queryKey: ['stores', 'scopes'],
    queryFn: async () => collection<Store>(await unwrap(api.GET('/api/rest/v2/stores'))).items,
    staleTime: 5 * 60_000,
  });
}

function draftsOf(data: ConfigurationAnswer): Record<string, FieldDraft> {
  const out: Record<string, FieldDraft> = {};
  for (const s of data.sections)
    for (const g of s.groups)
      for (const f of g.fields) out[f.path] = { inherit: f.inherited, value: f.type === 'secret' ? '' : (f.value ?? '') };
  return out;
}

/** The problems a refused write names, by path. */
function problemsOf(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError)) return {};
  const list = error.details.errors;
  if (!Array.isArray(list)) return {};
  return Object.fromEntries(list.map((p: { path: string; reason: string }) => [p.path, p.reason]));
}

export function Configuration({ search }: { search: ConfigSearch }) {
  const { t } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const scope: Scope = search.scope ?? 'default';
  const scopeId = scope === 'default' ? 0 : (search.scopeId ?? 0);
  const sections = useQuery({
    queryKey: ['configuration', 'sections'],
    queryFn: async () =>
      collection<Row<'/api/rest/v2/configuration/sections'>>(await unwrap(api.GET('/api/rest/v2/configuration/sections'))).items,
  });
  const section = search.section ?? sections.data?.[0]?.id;
  const scopes = useScopes();
  const config = useQuery({
    queryKey: ['configuration', section, scope, scopeId],
    queryFn: () => unwrap(api.GET('/api/rest/v2/configuration', { params: { query: { section, scope, scopeId } } })),
    enabled: !!section,
  });
  const [initial, setInitial] = useState<Record<string, FieldDraft>>({});
  const [draft, setDraft] = useState<Record<string, FieldDraft>>({});
  const [error, setError] = useState<unknown>();
  const [done, setDone] = useState<string>();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (config.data) {
      setInitial(draftsOf(config.data));
      setDraft(draftsOf(config.data));
    }
  }, [config.data]);
  const changes = useMemo(
    () => Object.keys(draft).filter((p) => JSON.stringify(draft[p]) !== JSON.stringify(initial[p])),
    [draft, initial],
  );
  useUnsavedChanges(changes.length > 0 && !busy);
  const canWrite = session.can('configuration', 'write');
  const problems = problemsOf(error);

  const websites = useMemo(() => {
    const seen = new Map<number, string>();
    for (const s of scopes.data ?? []) seen.set(s.websiteId, s.websiteName);
    return [...seen].map(([id, name]) => ({ id, name }));
  }, [scopes.data]);
  const parentLabel =
    scope === 'stores'
      ? t('system.config.useWebsite')
      : scope === 'websites'
        ? t('system.config.useDefault')
        : t('system.config.useDeclared');

  function go(next: ConfigSearch) {
    void navigate({ to: '/configuration', search: { section, scope, scopeId, ...next } });
  }

  async function save(e: FormEvent) {
    e.preventDefault();
    if (!config.data) return;
    const fields = new Map(config.data.sections.flatMap((s) => s.groups.flatMap((g) => g.fields.map((f) => [f.path, f] as const))));
    const values: Record<string, unknown> = {};
    for (const path of changes) {
      const d = draft[path];
      const f = fields.get(path)!;
      if (d.inherit) values[path] = null;
      else if (f.type === 'secret' && d.value === '') continue;
      else values[path] = d.value;
    }
    if (!Object.keys(values).length) return;
    setBusy(true);
    setError(undefined);
    setDone(undefined);
    try {
      const r = await unwrap(api.PUT('/api/rest/v2/configuration', { body: { scope, scopeId, values } }));
      await qc.invalidateQueries({ queryKey: ['configuration', section, scope, scopeId] });
      await qc.invalidateQueries({ queryKey: ['grid', 'configuration-history'] });
      setDone(t('system.config.saved', { count: r.changed.length }));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  const current = sections.data?.find((s) => s.id === section);
  return (
    <>
      <PageHeader
        title={t('system.config.title')}
        actions={
          <Link to="/configuration/history" search={{}}>
            {t('system.config.history')}
          </Link>
        }
      >
        <div className="scope-switch">
          <label htmlFor="config-scope">{t('system.config.scope')}</label>
          <select
            id="config-scope"
            value={`${scope}:${scopeId}`}
            onChange={(e) => {
              const [s, id] = e.target.value.split(':');
              if (changes.length && !window.confirm(t('form.unsavedChanges'))) return;
              setInitial(draft);
              go({ scope: s as Scope, scopeId: Number(id) });
            }}
          >
            <option value="default:0">{t('system.config.defaultScope')}</option>
            <optgroup label={t('system.config.websites')}>
              {websites.map((w) => (
                <option key={w.id} value={`websites:${w.id}`}>
                  {w.name}
                </option>
              ))}
            </optgroup>
            <optgroup label={t('system.config.storeViews')}>
              {(scopes.data ?? []).map((s) => (
                <option key={s.id} value={`stores:${s.id}`}>
                  {s.websiteName} / {s.name}
                </option>
              ))}
            </optgroup>
          </select>
        </div>
      </PageHeader>
      <div className="config-layout">
        <nav className="config-sections" aria-label={t('system.config.sections')}>
          <ErrorNote error={sections.error} />
          <ul>
            {(sections.data ?? []).map((s) => (
              <li key={s.id}>
                <Link
                  to="/configuration"
                  search={{ section: s.id, scope, scopeId }}
                  aria-current={s.id === section ? 'page' : undefined}
                  className={s.id === section ? 'current' : undefined}
                >
                  {s.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <form className="config-form" onSubmit={save} aria-label={current?.label ?? t('system.config.title')}>
          {done && <Notice>{done}</Notice>}
          <ErrorNote error={error ?? config.error} />
          {config.isPending && !!section && <Spinner />}
          {config.data?.sections.map((s) =>
            s.groups.map((g) => (
              <fieldset key={`${s.id}/${g.id}`} className="panel config-group" disabled={!canWrite || busy}>
                <legend>{g.label}</legend>
                {g.fields.map((f) => (
                  <ConfigRow
                    key={f.path}
                    field={f}
                    scope={scope}
                    parentLabel={parentLabel}
                    draft={draft[f.path] ?? { inherit: f.inherited, value: '' }}
                    problem={problems[f.path]}
                    onChange={(d) => setDraft((all) => ({ ...all, [f.path]: d }))}
                  />
                ))}
              </fieldset>
            )),
          )}
          {config.data && canWrite && (
            <div className="form-actions sticky-actions">
              <button type="submit" className="primary" disabled={busy || changes.length === 0}>
                {t('common.save')}
              </button>
              <span className="sys-muted" aria-live="polite">
                {changes.length ? t('system.config.pending', { count: changes.length }) : ''}
              </span>
            </div>
          )}
        </form>
      </div>
    </>
  );
}

function ConfigRow(props: {
  field: ConfigFieldData;
  scope: Scope;
  parentLabel: string;
  draft: FieldDraft;
  problem?: string;
  onChange: (d: FieldDraft) => void;
}) {
  const { t } = useTranslation();
  const { field: f, draft: d } = props;
  const settable = f.scopes.includes(props.scope);
  const id = `cfg-${f.path.replaceAll('/', '-')}`;
  const source = t(`system.config.source.${f.source}`, { defaultValue: f.source });
  return (
    <div className={`config-field${props.problem ? ' invalid' : ''}`}>
      <div className="config-label">
        <label htmlFor={id}>{f.label}</label>
        <small className="sys-muted">
          <code>{f.path}</code>
        </small>
      </div>
      <div className="config-value">
        <ConfigInput
          id={id}
          field={f}
          value={d.value}
          disabled={!settable || (props.scope !== 'default' && d.inherit)}
          invalid={!!props.problem}
          describedBy={`${id}-about`}
          onChange={(value) => props.onChange({ inherit: false, value })}
        />
        <small id={`${id}-about`} className="hint">
          {[
            f.comment,
            f.type === 'secret' ? (f.isSet ? t('system.config.secretSet') : t('system.config.secretUnset')) : undefined,
            t('system.config.from', { source }),
            settable
              ? undefined
              : t('system.config.onlyAt', { scopes: f.scopes.map((s) => t(`system.config.scopeNames.${s}`)).join(', ') }),
            props.problem,
          ]
            .filter(Boolean)
            .join(' · ')}
        </small>
      </div>
      <div className="config-inherit">
        {settable && (props.scope !== 'default' || !f.inherited) && (
          <label className="checkbox">
            <input
              type="checkbox"
              checked={d.inherit}
              aria-label={`${props.parentLabel}: ${f.label}`}
              onChange={(e) => props.onChange({ inherit: e.target.checked, value: d.value })}
            />
            {props.parentLabel}
          </label>
        )}
      </div>
    </div>
  );
}
