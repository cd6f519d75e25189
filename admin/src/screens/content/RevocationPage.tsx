/**
 * One revocation declaration: the order, who declared it and how (signed in as the order's owner: verified), when,
 * the reason, whether the receipt mail went out; its processing status and the staff note, which can be changed.
 */
import { useRef, type ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { api, unwrap, type Answer } from '../../api/client';
import { useSession } from '../../auth/session';
import { ErrorNote, Notice, PageHeader, SelectField, Spinner, TextArea, useStoreViews } from '../../components/ui';
import { formatDate } from '../../i18n';
import { PROCESSED, RevocationStatus } from './RevocationsGrid';
import { FormSection, useEntityForm, utc } from './shared';

type Revocation = Answer<'/api/rest/v2/revocation-requests/{id}', 'get'>;

interface Draft {
  processedStatus: string;
  adminNote: string;
}

const draftOf = (r: Revocation): Draft => ({ processedStatus: r.processedStatus ?? '', adminNote: r.adminNote ?? '' });

export function RevocationPage({ requestId }: { requestId: number }) {
  const { t } = useTranslation();
  const session = useSession();
  const stores = useStoreViews();
  // the status is sent only when changed: each change stamps the processing time
  const shown = useRef<Revocation>();
  const form = useEntityForm<Revocation, Draft>({
    kind: 'revocation-requests',
    id: requestId,
    load: (id) => unwrap(api.GET('/api/rest/v2/revocation-requests/{id}', { params: { path: { id } } })),
    toDraft: draftOf,
    empty: { processedStatus: '', adminNote: '' },
    create: () => Promise.reject(new Error('not creatable')),
    update: (id, d) =>
      unwrap(
        api.PUT('/api/rest/v2/revocation-requests/{id}', {
          params: { path: { id } },
          body: {
            ...(d.processedStatus && d.processedStatus !== shown.current?.processedStatus ? { processedStatus: d.processedStatus } : {}),
            adminNote: d.adminNote,
          },
        }),
      ),
    remove: () => Promise.reject(new Error('not deletable')),
    deleteConfirm: '',
    onCreated: () => undefined,
    onDeleted: () => undefined,
  });
  if (form.loading) return <Spinner />;
  if (form.loadError || !form.item) return <ErrorNote error={form.loadError} />;
  const r = form.item;
  shown.current = r;
  const { draft, set, error } = form;
  const canWrite = session.can('revocation-requests', 'write');
  const facts: [string, ReactNode][] = [
    [
      t('content.revocations.order'),
      session.can('orders') ? (
        <Link to={'/orders/$orderId' as never} params={{ orderId: String(r.orderId) } as never}>
          {r.orderReference}
        </Link>
      ) : (
        r.orderReference
      ),
    ],
    [t('content.revocations.customer'), r.customerName],
    [t('content.revocations.email'), r.email],
    [t('content.revocations.verified'), r.verified ? t('content.revocations.verifiedYes') : t('content.revocations.verifiedNo')],
    [t('content.revocations.storeView'), stores.find((s) => s.id === r.storeId)?.name ?? String(r.storeId)],
    [t('content.revocations.received'), formatDate(utc(r.receivedAt))],
    [t('content.revocations.reason'), r.reason || '—'],
    [t('content.revocations.statusLabel'), <RevocationStatus key="s" status={r.processedStatus} />],
    [t('content.revocations.processedAt'), r.processedAt ? formatDate(utc(r.processedAt)) : '—'],
    [
      t('content.revocations.receipt'),
      r.suppressedAt
        ? t('content.revocations.receiptSuppressed', { at: formatDate(utc(r.suppressedAt)) })
        : t('content.revocations.receiptSent'),
    ],
    [t('content.revocations.ip'), r.ip ?? '—'],
    [t('content.revocations.userAgent'), r.userAgent ?? '—'],
  ];
  return (
    <>
      <PageHeader
        title={t('content.revocations.pageTitle', { order: r.orderReference })}
        actions={
          <Link to="/revocation-requests" className="button">
            {t('common.back')}
          </Link>
        }
      />
      <FormSection title={t('content.revocations.declaration')}>
        <dl className="content-facts">
          {facts.map(([k, v]) => (
            <div key={k}>
              <dt>{k}</dt>
              <dd>{v}</dd>
            </div>
          ))}
        </dl>
      </FormSection>
      <form className="content-form" onSubmit={form.save} aria-label={t('content.revocations.processing')}>
        <FormSection title={t('content.revocations.processing')}>
          <ErrorNote error={error} />
          {form.done && <Notice>{form.done}</Notice>}
          <SelectField
            label={t('content.revocations.statusLabel')}
            name="processedStatus"
            error={error}
            disabled={!canWrite}
            value={draft.processedStatus}
            onChange={(e) => set('processedStatus', e.target.value)}
            options={[
              ...(r.processedStatus ? [] : [{ value: '', label: t('content.revocations.status.pending') }]),
              ...PROCESSED.map((s) => ({ value: s, label: t(`content.revocations.status.${s}`) })),
            ]}
          />
          <TextArea
            label={t('content.revocations.note')}
            name="adminNote"
            error={error}
            rows={4}
            maxLength={65535}
            readOnly={!canWrite}
            value={draft.adminNote}
            onChange={(e) => set('adminNote', e.target.value)}
          />
          {canWrite && (
            <div className="form-actions">
              <button type="submit" className="primary" disabled={form.busy || !form.dirty}>
                {t('common.save')}
              </button>
            </div>
          )}
        </FormSection>
      </form>
    </>
  );
}
