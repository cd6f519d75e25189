/**
 * A gift card: its balance and status changed (a balance change is kept in the card's history with its comment),
 * its expiry and recipient edited, and its balance history shown, newest first. A new card gets a generated code
 * unless one is typed, and a mail when a recipient email is given.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, unwrap, type Answer } from '../../api/client';
import { useSession } from '../../auth/session';
import { ErrorNote, Notice, PageHeader, SelectField, Spinner, TextArea, TextField } from '../../components/ui';
import { formatMoney } from '../../i18n';
import { when } from '../sales/common';
import { Facts, Section, nameOf, textOrNull, useLeaveGuard, useSubmit, useWebsites } from '../customers/shared';
import { IdChecks } from './CouponForm';
import { GiftCardStatus } from './GiftCardsGrid';
import { GIFTCARD_STATUSES } from './shared';

type GiftCard = Answer<'/api/rest/v2/giftcards/{id}', 'get'>;

interface Draft {
  status: string;
  balance: string;
  comment: string;
  expiresAt: string;
  recipientName: string;
  recipientEmail: string;
  senderName: string;
  senderEmail: string;
  message: string;
}

/** The API's UTC `YYYY-MM-DD HH:MM:SS` as a datetime-local value (kept in UTC, as the label says), and back. */
const toInput = (wire: string | undefined) => (wire ? wire.slice(0, 16).replace(' ', 'T') : '');
const fromInput = (v: string) => (v ? `${v.replace('T', ' ')}:00`.slice(0, 19) : null);

const draftOf = (g: GiftCard): Draft => ({
  status: g.status,
  balance: String(g.balance),
  comment: '',
  expiresAt: toInput(g.expiresAt),
  recipientName: g.recipientName ?? '',
  recipientEmail: g.recipientEmail ?? '',
  senderName: g.senderName ?? '',
  senderEmail: g.senderEmail ?? '',
  message: g.message ?? '',
});

const TEXTS = ['recipientName', 'recipientEmail', 'senderName', 'senderEmail', 'message'] as const;

/** Only what changed is sent: an unchanged balance would be recorded as an adjustment, an old expiry refused. */
function changes(before: Draft, d: Draft) {
  const body: {
    status?: string;
    balance?: number;
    comment?: string | null;
    expiresAt?: string | null;
  } & Partial<Record<(typeof TEXTS)[number], string | null>> = {};
  if (d.status !== before.status) body.status = d.status;
  if (Number(d.balance) !== Number(before.balance)) {
    body.balance = Number(d.balance);
    body.comment = textOrNull(d.comment);
  }
  if (d.expiresAt !== before.expiresAt) body.expiresAt = fromInput(d.expiresAt);
  for (const k of TEXTS) if (d[k] !== before[k]) body[k] = textOrNull(d[k]);
  return body;
}

export function GiftCardPage({ giftcardId }: { giftcardId: number }) {
  const { t } = useTranslation();
  const session = useSession();
  const qc = useQueryClient();
  const websites = useWebsites();
  const card = useQuery({
    queryKey: ['giftcards', giftcardId],
    queryFn: () => unwrap(api.GET('/api/rest/v2/giftcards/{id}', { params: { path: { id: giftcardId } } })),
  });
  const [initial, setInitial] = useState<Draft>();
  const [draft, setDraft] = useState<Draft>();
  const submit = useSubmit();
  useEffect(() => {
    if (card.data) {
      const d = draftOf(card.data);
      setInitial(d);
      setDraft(d);
    }
  }, [card.data]);
  const dirty = !!draft && !!initial && JSON.stringify(draft) !== JSON.stringify(initial);
  useLeaveGuard(dirty);
  if (card.isPending || !draft || !initial) return card.error ? <ErrorNote error={card.error} /> : <Spinner />;
  const g = card.data!;
  const canSave = session.can('giftcards', 'write');
  const set = <K extends keyof Draft>(k: K, v: Draft[K]) => setDraft((d) => ({ ...d!, [k]: v }));
  const balanceChanged = Number(draft.balance) !== Number(initial.balance);

  function save(e: FormEvent) {
    e.preventDefault();
    void submit.run(async () => {
      const saved = await unwrap(
        api.PUT('/api/rest/v2/giftcards/{id}', { params: { path: { id: giftcardId } }, body: changes(initial!, draft!) }),
      );
      qc.setQueryData(['giftcards', giftcardId], saved);
      await qc.invalidateQueries({ queryKey: ['grid', 'giftcards'] });
      return t('common.saved');
    });
  }

  // a card past its expiry or spent shows as such; staff set it active or disabled
  const statuses = GIFTCARD_STATUSES.filter((s) => s === 'active' || s === 'disabled' || s === g.status);
  return (
    <>
      <PageHeader
        title={t('marketing.giftcards.editTitle', { code: g.code })}
        actions={
          <Link to="/giftcards" className="button">
            {t('common.back')}
          </Link>
        }
      >
        <GiftCardStatus status={g.status} />
      </PageHeader>
      <Facts
        label={t('marketing.giftcards.facts')}
        rows={[
          [t('marketing.giftcards.balance'), <span className="cm-balance">{formatMoney(g.balance, g.currencyCode)}</span>],
          [t('marketing.giftcards.initialBalance'), formatMoney(g.initialBalance, g.currencyCode)],
          [t('marketing.giftcards.websites'), g.websiteIds.map((id) => nameOf(websites, id)).join(', ')],
          [t('marketing.giftcards.createdAt'), when(g.createdAt)],
          [t('marketing.giftcards.purchaseOrder'), g.purchaseOrderId ? String(g.purchaseOrderId) : ''],
          [t('marketing.giftcards.emailSentAt'), when(g.emailSentAt)],
        ]}
      />
      <form className="cm-form" onSubmit={save} aria-label={t('marketing.giftcards.form')}>
        <ErrorNote error={submit.error} />
        {submit.done && <Notice>{submit.done}</Notice>}
        <Section title={t('marketing.giftcards.balanceAndStatus')}>
          <div className="form-grid">
            <SelectField
              label={t('marketing.giftcards.status')}
              name="status"
              error={submit.error}
              disabled={!canSave}
              value={draft.status}
              onChange={(e) => set('status', e.target.value)}
              options={statuses.map((s) => ({ value: s, label: t(`marketing.giftcards.statuses.${s}`) }))}
            />
            <TextField
              label={t('marketing.giftcards.balanceField', { currency: g.currencyCode })}
              name="balance"
              type="number"
              step="0.01"
              min={0}
              max={10000}
              error={submit.error}
              disabled={!canSave}
              value={draft.balance}
              onChange={(e) => set('balance', e.target.value)}
            />
            <TextField
              label={t('marketing.giftcards.comment')}
              name="comment"
              maxLength={1000}
              hint={t('marketing.giftcards.commentHint')}
              error={submit.error}
              disabled={!canSave || !balanceChanged}
              value={draft.comment}
              onChange={(e) => set('comment', e.target.value)}
            />
            <TextField
              label={t('marketing.giftcards.expiresAtField')}
              name="expiresAt"
              type="datetime-local"
              hint={t('marketing.giftcards.expiresHint')}
              error={submit.error}
              disabled={!canSave}
              value={draft.expiresAt}
              onChange={(e) => set('expiresAt', e.target.value)}
            />
          </div>
        </Section>
        <RecipientFields draft={draft} set={set} error={submit.error} disabled={!canSave} />
        {canSave && (
          <div className="form-actions">
            <button type="submit" className="primary" disabled={submit.busy || !dirty}>
              {t('common.save')}
            </button>
          </div>
        )}
      </form>
      <History card={g} />
    </>
  );
}

function RecipientFields(props: {
  draft: Pick<Draft, (typeof TEXTS)[number]>;
  set: (k: (typeof TEXTS)[number], v: string) => void;
  error: unknown;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const { draft, set } = props;
  const text = (name: Exclude<(typeof TEXTS)[number], 'message'>, type = 'text') => (
    <TextField
      label={t(`marketing.giftcards.${name}`)}
      name={name}
      type={type}
      maxLength={255}
      error={props.error}
      disabled={props.disabled}
      value={draft[name]}
      onChange={(e) => set(name, e.target.value)}
    />
  );
  return (
    <Section title={t('marketing.giftcards.recipientSection')}>
      <div className="form-grid">
        {text('recipientName')}
        {text('recipientEmail', 'email')}
        {text('senderName')}
        {text('senderEmail', 'email')}
      </div>
      <TextArea
        label={t('marketing.giftcards.message')}
        name="message"
        rows={3}
        maxLength={1000}
        error={props.error}
        disabled={props.disabled}
        value={draft.message}
        onChange={(e) => set('message', e.target.value)}
      />
    </Section>
  );
}

function History({ card }: { card: GiftCard }) {
  const { t } = useTranslation();
  return (
    <Section title={t('marketing.giftcards.history')}>
      {card.history.length === 0 ? (
        <p className="cm-muted">{t('marketing.giftcards.noHistory')}</p>
      ) : (
        <div className="grid-scroll">
          <table>
            <caption className="sr-only">{t('marketing.giftcards.history')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('marketing.giftcards.when')}</th>
                <th scope="col">{t('marketing.giftcards.action')}</th>
                <th scope="col" className="num">
                  {t('marketing.giftcards.change')}
                </th>
                <th scope="col" className="num">
                  {t('marketing.giftcards.balanceBefore')}
                </th>
                <th scope="col" className="num">
                  {t('marketing.giftcards.balanceAfter')}
                </th>
                <th scope="col">{t('marketing.giftcards.order')}</th>
                <th scope="col">{t('marketing.giftcards.comment')}</th>
              </tr>
            </thead>
            <tbody>
              {card.history.map((h, i) => (
                <tr key={i}>
                  <td>{when(h.createdAt)}</td>
                  <td>{t(`marketing.giftcards.actions.${h.action}`, { defaultValue: h.action })}</td>
                  <td className="num">{formatMoney(h.amount, card.currencyCode)}</td>
                  <td className="num">{formatMoney(h.balanceBefore, card.currencyCode)}</td>
                  <td className="num">{formatMoney(h.balanceAfter, card.currencyCode)}</td>
                  <td>
                    {h.orderId ? (
                      <Link to="/orders/$orderId" params={{ orderId: String(h.orderId) }}>
                        {String(h.orderId)}
                      </Link>
                    ) : null}
                  </td>
                  <td>{h.comment}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Section>
  );
}

/** A new gift card. */
export function GiftCardCreate() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const websites = useWebsites();
  const empty = {
    code: '',
    initialBalance: '',
    currencyCode: '',
    websiteIds: [] as number[],
    status: 'active',
    expiresAt: '',
    recipientName: '',
    recipientEmail: '',
    senderName: '',
    senderEmail: '',
    message: '',
  };
  const [draft, setDraft] = useState(empty);
  const submit = useSubmit();
  const guard = useLeaveGuard(JSON.stringify(draft) !== JSON.stringify(empty));
  const set = <K extends keyof typeof empty>(k: K, v: (typeof empty)[K]) => setDraft((d) => ({ ...d, [k]: v }));
  const op = 'giftcards.create';

  function save(e: FormEvent) {
    e.preventDefault();
    void submit.run(async () => {
      const created = await unwrap(
        api.POST('/api/rest/v2/giftcards', {
          body: {
            initialBalance: Number(draft.initialBalance),
            code: textOrNull(draft.code),
            currencyCode: textOrNull(draft.currencyCode.toUpperCase()),
            ...(draft.websiteIds.length ? { websiteIds: draft.websiteIds } : {}),
            status: draft.status,
            // empty: the configured lifetime applies
            ...(draft.expiresAt ? { expiresAt: fromInput(draft.expiresAt) } : {}),
            recipientName: textOrNull(draft.recipientName),
            recipientEmail: textOrNull(draft.recipientEmail),
            senderName: textOrNull(draft.senderName),
            senderEmail: textOrNull(draft.senderEmail),
            message: textOrNull(draft.message),
          },
        }),
      );
      guard.release();
      await qc.invalidateQueries({ queryKey: ['grid', 'giftcards'] });
      await navigate({ to: '/giftcards/$giftcardId', params: { giftcardId: String(created.id) }, replace: true });
    });
  }

  return (
    <>
      <PageHeader
        title={t('marketing.giftcards.new')}
        actions={
          <Link to="/giftcards" className="button">
            {t('common.back')}
          </Link>
        }
      />
      <form className="cm-form" onSubmit={save} aria-label={t('marketing.giftcards.new')}>
        <ErrorNote error={submit.error} />
        <Section title={t('marketing.giftcards.card')}>
          <div className="form-grid">
            <TextField
              label={t('marketing.giftcards.initialBalance')}
              name="initialBalance"
              type="number"
              step="0.01"
              min={0.01}
              max={10000}
              required
              operationId={op}
              error={submit.error}
              value={draft.initialBalance}
              onChange={(e) => set('initialBalance', e.target.value)}
            />
            <TextField
              label={t('marketing.giftcards.code')}
              name="code"
              minLength={4}
              maxLength={64}
              pattern="[A-Za-z0-9\-]+"
              hint={t('marketing.giftcards.codeHint')}
              error={submit.error}
              value={draft.code}
              onChange={(e) => set('code', e.target.value)}
            />
            <TextField
              label={t('marketing.giftcards.currency')}
              name="currencyCode"
              maxLength={3}
              hint={t('marketing.giftcards.currencyHint')}
              error={submit.error}
              value={draft.currencyCode}
              onChange={(e) => set('currencyCode', e.target.value)}
            />
            <SelectField
              label={t('marketing.giftcards.status')}
              name="status"
              error={submit.error}
              value={draft.status}
              onChange={(e) => set('status', e.target.value)}
              options={['active', 'disabled'].map((s) => ({ value: s, label: t(`marketing.giftcards.statuses.${s}`) }))}
            />
            <TextField
              label={t('marketing.giftcards.expiresAtField')}
              name="expiresAt"
              type="datetime-local"
              hint={t('marketing.giftcards.expiresNewHint')}
              error={submit.error}
              value={draft.expiresAt}
              onChange={(e) => set('expiresAt', e.target.value)}
            />
          </div>
          <IdChecks
            legend={t('marketing.giftcards.websites')}
            hint={t('marketing.giftcards.websitesHint')}
            items={websites.map((w) => ({ id: w.id, label: w.name }))}
            value={draft.websiteIds}
            onChange={(v) => set('websiteIds', v)}
          />
        </Section>
        <RecipientFields draft={draft} set={set} error={submit.error} />
        <p className="cm-muted">{t('marketing.giftcards.mailNote')}</p>
        <div className="form-actions">
          <button type="submit" className="primary" disabled={submit.busy}>
            {t('marketing.giftcards.create')}
          </button>
        </div>
      </form>
    </>
  );
}
