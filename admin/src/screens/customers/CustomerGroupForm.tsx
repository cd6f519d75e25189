/** A customer group: its code and the customer tax class its customers are taxed by. */
import { Link, useNavigate } from '@tanstack/react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, unwrap, type Answer, type Row } from '../../api/client';
import { collection } from '../../api/lists';
import { useSession } from '../../auth/session';
import { ErrorNote, Notice, PageHeader, SelectField, Spinner, TextField } from '../../components/ui';
import { useEntityForm } from '../content/shared';
import { Section } from './shared';

type Group = Answer<'/api/rest/v2/customer-groups/{id}', 'get'>;
type TaxClass = Row<'/api/rest/v2/tax-classes'>;

interface Draft {
  code: string;
  taxClassId: string;
}

/** Magento's "Retail Customer" class, the API's default. */
const DEFAULT_TAX_CLASS = '3';

export function CustomerGroupForm({ groupId }: { groupId?: number }) {
  const { t } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const classes = useQuery({
    queryKey: ['tax-classes', 'CUSTOMER'],
    staleTime: 300_000,
    enabled: session.can('tax-classes', 'read'),
    queryFn: async () =>
      collection<TaxClass>(
        await unwrap(api.GET('/api/rest/v2/tax-classes', { params: { query: { classType: 'CUSTOMER', itemsPerPage: 100 } } })),
      ).items,
  });
  const body = (d: Draft) => ({ code: d.code.trim(), taxClassId: Number(d.taxClassId) });
  const form = useEntityForm<Group, Draft>({
    kind: 'customer-groups',
    id: groupId,
    load: (id) => unwrap(api.GET('/api/rest/v2/customer-groups/{id}', { params: { path: { id } } })),
    toDraft: (g) => ({ code: g.code, taxClassId: String(g.taxClassId) }),
    empty: { code: '', taxClassId: DEFAULT_TAX_CLASS },
    create: (d) => unwrap(api.POST('/api/rest/v2/customer-groups', { body: body(d) })),
    update: (id, d) => unwrap(api.PUT('/api/rest/v2/customer-groups/{id}', { params: { path: { id } }, body: body(d) })),
    remove: (id) => unwrap(api.DELETE('/api/rest/v2/customer-groups/{id}', { params: { path: { id } } })),
    deleteConfirm: t('customers.groups.deleteConfirm'),
    onCreated: async (g) => {
      await qc.invalidateQueries({ queryKey: ['customer-groups', 'all'] });
      await navigate({ to: '/customer-groups/$groupId', params: { groupId: String(g.id) }, replace: true });
    },
    onDeleted: async () => {
      await qc.invalidateQueries({ queryKey: ['customer-groups', 'all'] });
      await navigate({ to: '/customer-groups' });
    },
  });
  if (form.loading) return <Spinner />;
  if (form.loadError) return <ErrorNote error={form.loadError} />;
  const { draft, set, error } = form;
  const op = groupId === undefined ? 'customerGroups.create' : 'customerGroups.update';
  const canSave = session.can('customer-groups', groupId === undefined ? 'create' : 'write');
  const options = (classes.data ?? []).map((c) => ({ value: String(c.id), label: c.className }));
  if (!options.some((o) => o.value === draft.taxClassId))
    options.unshift({ value: draft.taxClassId, label: form.item?.taxClassName ?? draft.taxClassId });
  return (
    <>
      <PageHeader
        title={form.item ? t('customers.groups.editTitle', { code: form.item.code }) : t('customers.groups.new')}
        actions={
          <>
            <Link to="/customer-groups" className="button">
              {t('common.back')}
            </Link>
            {form.item && session.can('customer-groups', 'delete') && (
              <button type="button" className="danger" disabled={form.busy} onClick={form.remove}>
                {t('common.delete')}
              </button>
            )}
          </>
        }
      />
      <form className="cm-form" onSubmit={form.save} aria-label={t('customers.groups.form')}>
        <ErrorNote error={error} />
        {form.done && <Notice>{form.done}</Notice>}
        <Section title={t('customers.groups.general')}>
          <div className="form-grid">
            <TextField
              label={t('customers.groups.code')}
              name="code"
              operationId={op}
              error={error}
              required
              disabled={!canSave}
              value={draft.code}
              onChange={(e) => set('code', e.target.value)}
            />
            <SelectField
              label={t('customers.groups.taxClass')}
              name="taxClassId"
              error={error}
              disabled={!canSave}
              value={draft.taxClassId}
              onChange={(e) => set('taxClassId', e.target.value)}
              options={options}
            />
          </div>
        </Section>
        {canSave && (
          <div className="form-actions">
            <button type="submit" className="primary" disabled={form.busy || (groupId !== undefined && !form.dirty)}>
              {t('common.save')}
            </button>
          </div>
        )}
      </form>
    </>
  );
}
