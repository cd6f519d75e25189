/**
 * A coupon and its rule: the code, the discount (type, amount, most units, buy X get Y, shipping), and the rule's
 * conditions as the API keeps them: validity dates, expiry, usage limits, the subtotal the cart must reach, the
 * websites and customer groups it applies to, priority and whether later rules still apply.
 */
import { Link, useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { api, unwrap, type Answer } from '../../api/client';
import { useSession } from '../../auth/session';
import { CheckboxField, ErrorNote, Notice, PageHeader, SelectField, Spinner, TextArea, TextField } from '../../components/ui';
import { useEntityForm } from '../content/shared';
import { when } from '../sales/common';
import { Facts, Section, numOrNull, textOrNull, useCustomerGroups, useWebsites } from '../customers/shared';
import { DISCOUNT_TYPES, type DiscountType } from './shared';

type Coupon = Answer<'/api/rest/v2/coupons/{id}', 'get'>;

interface Draft {
  code: string;
  description: string;
  isActive: boolean;
  discountType: DiscountType;
  discountAmount: string;
  discountQty: string;
  discountStep: string;
  applyToShipping: boolean;
  simpleFreeShipping: string;
  fromDate: string;
  toDate: string;
  expirationDate: string;
  usageLimit: string;
  usagePerCustomer: string;
  minimumSubtotal: string;
  websiteIds: number[];
  customerGroupIds: number[];
  sortOrder: string;
  stopRulesProcessing: boolean;
}

const str = (n: number | undefined | null) => (n === undefined || n === null ? '' : String(n));

const draftOf = (c: Coupon): Draft => ({
  code: c.code,
  description: c.description ?? '',
  isActive: c.isActive,
  discountType: (DISCOUNT_TYPES as readonly string[]).includes(c.discountType) ? (c.discountType as DiscountType) : 'percent',
  discountAmount: str(c.discountAmount),
  discountQty: str(c.discountQty),
  discountStep: str(c.discountStep),
  applyToShipping: c.applyToShipping,
  simpleFreeShipping: str(c.simpleFreeShipping),
  fromDate: c.fromDate ?? '',
  toDate: c.toDate ?? '',
  // the API's UTC `YYYY-MM-DD HH:MM:SS` as a datetime-local value (kept in UTC, as the label says)
  expirationDate: c.expirationDate ? c.expirationDate.slice(0, 16).replace(' ', 'T') : '',
  usageLimit: str(c.usageLimit),
  usagePerCustomer: str(c.usagePerCustomer),
  minimumSubtotal: str(c.minimumSubtotal),
  websiteIds: c.websiteIds,
  customerGroupIds: c.customerGroupIds,
  sortOrder: str(c.sortOrder),
  stopRulesProcessing: c.stopRulesProcessing,
});

const bodyOf = (d: Draft, isNew: boolean) => ({
  code: d.code.trim(),
  description: textOrNull(d.description),
  isActive: d.isActive,
  discountType: d.discountType,
  discountAmount: Number(d.discountAmount),
  discountQty: numOrNull(d.discountQty),
  ...(d.discountType === 'buy_x_get_y' && d.discountStep !== '' ? { discountStep: Number(d.discountStep) } : {}),
  applyToShipping: d.applyToShipping,
  simpleFreeShipping: Number(d.simpleFreeShipping || 0),
  fromDate: textOrNull(d.fromDate),
  toDate: textOrNull(d.toDate),
  expirationDate: d.expirationDate ? `${d.expirationDate.replace('T', ' ')}:00`.slice(0, 19) : null,
  usageLimit: numOrNull(d.usageLimit),
  usagePerCustomer: numOrNull(d.usagePerCustomer),
  minimumSubtotal: numOrNull(d.minimumSubtotal),
  websiteIds: d.websiteIds,
  // none chosen on a new coupon: the API applies it to every group
  ...(isNew && d.customerGroupIds.length === 0 ? {} : { customerGroupIds: d.customerGroupIds }),
  sortOrder: Number(d.sortOrder || 0),
  stopRulesProcessing: d.stopRulesProcessing,
});

const EMPTY: Draft = {
  code: '',
  description: '',
  isActive: true,
  discountType: 'percent',
  discountAmount: '',
  discountQty: '',
  discountStep: '',
  applyToShipping: false,
  simpleFreeShipping: '0',
  fromDate: '',
  toDate: '',
  expirationDate: '',
  usageLimit: '',
  usagePerCustomer: '',
  minimumSubtotal: '',
  websiteIds: [1],
  customerGroupIds: [],
  sortOrder: '0',
  stopRulesProcessing: false,
};

/** Checkboxes choosing ids from a list. */
export function IdChecks(props: {
  legend: string;
  items: { id: number; label: string }[];
  value: number[];
  onChange: (ids: number[]) => void;
  disabled?: boolean;
  hint?: string;
}) {
  return (
    <fieldset className="cm-checks">
      <legend>{props.legend}</legend>
      {props.hint && <p className="cm-muted">{props.hint}</p>}
      {props.items.map((i) => (
        <label key={i.id} className="checkbox">
          <input
            type="checkbox"
            disabled={props.disabled}
            checked={props.value.includes(i.id)}
            onChange={(e) => props.onChange(e.target.checked ? [...props.value, i.id] : props.value.filter((x) => x !== i.id))}
          />
          {i.label}
        </label>
      ))}
    </fieldset>
  );
}

export function CouponForm({ couponId }: { couponId?: number }) {
  const { t } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  const websites = useWebsites();
  const groups = useCustomerGroups();
  const form = useEntityForm<Coupon, Draft>({
    kind: 'coupons',
    id: couponId,
    load: (id) => unwrap(api.GET('/api/rest/v2/coupons/{id}', { params: { path: { id } } })),
    toDraft: draftOf,
    empty: EMPTY,
    create: (d) => unwrap(api.POST('/api/rest/v2/coupons', { body: bodyOf(d, true) })),
    update: (id, d) => unwrap(api.PUT('/api/rest/v2/coupons/{id}', { params: { path: { id } }, body: bodyOf(d, false) })),
    remove: (id) => unwrap(api.DELETE('/api/rest/v2/coupons/{id}', { params: { path: { id } } })),
    deleteConfirm: t('marketing.coupons.deleteConfirm'),
    onCreated: (c) => navigate({ to: '/coupons/$couponId', params: { couponId: String(c.id) }, replace: true }),
    onDeleted: () => navigate({ to: '/coupons' }),
  });
  if (form.loading) return <Spinner />;
  if (form.loadError) return <ErrorNote error={form.loadError} />;
  const { draft, set, error } = form;
  const op = couponId === undefined ? 'coupons.create' : 'coupons.update';
  const canSave = session.can('coupons', couponId === undefined ? 'create' : 'write');
  const off = !canSave;
  const num = (
    name: 'discountAmount' | 'discountQty' | 'discountStep' | 'usageLimit' | 'usagePerCustomer' | 'minimumSubtotal' | 'sortOrder',
    o: { required?: boolean; step?: string; min?: number; hint?: string } = {},
  ) => (
    <TextField
      label={t(`marketing.coupons.${name}`)}
      name={name}
      type="number"
      operationId={op}
      error={error}
      required={o.required}
      step={o.step ?? '1'}
      min={o.min ?? 0}
      hint={o.hint}
      disabled={off}
      value={draft[name]}
      onChange={(e) => set(name, e.target.value)}
    />
  );
  const item = form.item;
  return (
    <>
      <PageHeader
        title={item ? t('marketing.coupons.editTitle', { code: item.code }) : t('marketing.coupons.new')}
        actions={
          <>
            <Link to="/coupons" className="button">
              {t('common.back')}
            </Link>
            {item && session.can('coupons', 'delete') && (
              <button type="button" className="danger" disabled={form.busy} onClick={form.remove}>
                {t('common.delete')}
              </button>
            )}
          </>
        }
      />
      {item && (
        <Facts
          label={t('marketing.coupons.facts')}
          rows={[
            [t('marketing.coupons.ruleName'), item.ruleName],
            [t('marketing.coupons.timesUsed'), String(item.timesUsed)],
            [t('marketing.coupons.kind'), item.type === 1 ? t('marketing.coupons.generated') : t('marketing.coupons.manual')],
            [t('marketing.coupons.createdAt'), when(item.createdAt)],
          ]}
        />
      )}
      <form className="cm-form" onSubmit={form.save} aria-label={t('marketing.coupons.form')}>
        <ErrorNote error={error} />
        {form.done && <Notice>{form.done}</Notice>}
        <Section title={t('marketing.coupons.general')}>
          <div className="form-grid">
            <TextField
              label={t('marketing.coupons.code')}
              name="code"
              operationId={op}
              error={error}
              required
              minLength={3}
              maxLength={64}
              pattern="[A-Za-z0-9_\-]+"
              hint={t('marketing.coupons.codeHint')}
              disabled={off}
              value={draft.code}
              onChange={(e) => set('code', e.target.value)}
            />
            {num('sortOrder', { min: -2147483647, hint: t('marketing.coupons.sortOrderHint') })}
          </div>
          <TextArea
            label={t('marketing.coupons.description')}
            name="description"
            error={error}
            hint={t('marketing.coupons.descriptionHint')}
            rows={2}
            disabled={off}
            value={draft.description}
            onChange={(e) => set('description', e.target.value)}
          />
          <CheckboxField
            label={t('marketing.coupons.active')}
            name="isActive"
            disabled={off}
            checked={draft.isActive}
            onChange={(e) => set('isActive', e.target.checked)}
          />
        </Section>
        <Section title={t('marketing.coupons.discount')}>
          <div className="form-grid">
            <SelectField
              label={t('marketing.coupons.discountType')}
              name="discountType"
              error={error}
              disabled={off}
              value={draft.discountType}
              onChange={(e) => set('discountType', e.target.value as DiscountType)}
              options={DISCOUNT_TYPES.map((d) => ({ value: d, label: t(`marketing.coupons.types.${d}`) }))}
            />
            {num('discountAmount', {
              required: true,
              step: draft.discountType === 'buy_x_get_y' ? '1' : '0.01',
              hint: t(`marketing.coupons.amountHints.${draft.discountType}`),
            })}
            {draft.discountType === 'buy_x_get_y' && num('discountStep', { min: 1, hint: t('marketing.coupons.discountStepHint') })}
            {num('discountQty', { hint: t('marketing.coupons.discountQtyHint') })}
            <SelectField
              label={t('marketing.coupons.simpleFreeShipping')}
              name="simpleFreeShipping"
              error={error}
              disabled={off}
              value={draft.simpleFreeShipping}
              onChange={(e) => set('simpleFreeShipping', e.target.value)}
              options={['0', '1', '2'].map((v) => ({ value: v, label: t(`marketing.coupons.freeShipping.${v}`) }))}
            />
          </div>
          <CheckboxField
            label={t('marketing.coupons.applyToShipping')}
            name="applyToShipping"
            disabled={off}
            checked={draft.applyToShipping}
            onChange={(e) => set('applyToShipping', e.target.checked)}
          />
        </Section>
        <Section title={t('marketing.coupons.conditions')}>
          <div className="form-grid">
            <TextField
              label={t('marketing.coupons.fromDate')}
              name="fromDate"
              type="date"
              error={error}
              disabled={off}
              value={draft.fromDate}
              onChange={(e) => set('fromDate', e.target.value)}
            />
            <TextField
              label={t('marketing.coupons.toDate')}
              name="toDate"
              type="date"
              error={error}
              disabled={off}
              value={draft.toDate}
              onChange={(e) => set('toDate', e.target.value)}
            />
            <TextField
              label={t('marketing.coupons.expirationDate')}
              name="expirationDate"
              type="datetime-local"
              error={error}
              disabled={off}
              value={draft.expirationDate}
              onChange={(e) => set('expirationDate', e.target.value)}
            />
            {num('minimumSubtotal', { step: '0.01', hint: t('marketing.coupons.minimumSubtotalHint') })}
            {num('usageLimit', { min: 1, hint: t('marketing.coupons.unlimited') })}
            {num('usagePerCustomer', { min: 1, hint: t('marketing.coupons.unlimited') })}
          </div>
          <IdChecks
            legend={t('marketing.coupons.websites')}
            items={websites.map((w) => ({ id: w.id, label: w.name }))}
            value={draft.websiteIds}
            onChange={(v) => set('websiteIds', v)}
            disabled={off}
          />
          <IdChecks
            legend={t('marketing.coupons.customerGroups')}
            hint={couponId === undefined ? t('marketing.coupons.customerGroupsHint') : undefined}
            items={groups.map((g) => ({ id: g.id, label: g.code }))}
            value={draft.customerGroupIds}
            onChange={(v) => set('customerGroupIds', v)}
            disabled={off}
          />
          <CheckboxField
            label={t('marketing.coupons.stopRulesProcessing')}
            name="stopRulesProcessing"
            disabled={off}
            checked={draft.stopRulesProcessing}
            onChange={(e) => set('stopRulesProcessing', e.target.checked)}
          />
        </Section>
        {canSave && (
          <div className="form-actions">
            <button type="submit" className="primary" disabled={form.busy || (couponId !== undefined && !form.dirty)}>
              {t('common.save')}
            </button>
          </div>
        )}
      </form>
    </>
  );
}
