/** A customer's account fields, as the new-customer form and the customer's page edit them. */
import { useTranslation } from 'react-i18next';
import type { Answer } from '../../api/client';
import { CheckboxField, SelectField, TextField } from '../../components/ui';
import { nameOf, textOrNull, useCustomerGroups, useWebsites } from './shared';

export type Customer = Answer<'/api/rest/v2/customers/{id}', 'get'>;

export interface AccountDraft {
  email: string;
  prefix: string;
  firstname: string;
  middlename: string;
  lastname: string;
  suffix: string;
  dob: string;
  gender: string;
  taxvat: string;
  groupId: string;
  websiteId: string;
  isActive: boolean;
  disableAutoGroupChange: boolean;
}

export const EMPTY_ACCOUNT: AccountDraft = {
  email: '',
  prefix: '',
  firstname: '',
  middlename: '',
  lastname: '',
  suffix: '',
  dob: '',
  gender: '',
  taxvat: '',
  groupId: '1',
  websiteId: '1',
  isActive: true,
  disableAutoGroupChange: false,
};

export const accountDraft = (c: Customer): AccountDraft => ({
  email: c.email,
  prefix: c.prefix ?? '',
  firstname: c.firstname,
  middlename: c.middlename ?? '',
  lastname: c.lastname,
  suffix: c.suffix ?? '',
  dob: c.dob ?? '',
  gender: c.gender === undefined || c.gender === null ? '' : String(c.gender),
  taxvat: c.taxvat ?? '',
  groupId: String(c.groupId),
  websiteId: String(c.websiteId),
  isActive: c.isActive,
  disableAutoGroupChange: c.disableAutoGroupChange,
});

/** The body of PUT /customers/{id} (the website is set at creation only). */
export const accountBody = (d: AccountDraft) => ({
  email: d.email.trim(),
  prefix: textOrNull(d.prefix),
  firstname: d.firstname.trim(),
  middlename: textOrNull(d.middlename),
  lastname: d.lastname.trim(),
  suffix: textOrNull(d.suffix),
  dob: textOrNull(d.dob),
  gender: d.gender === '' ? null : Number(d.gender),
  taxvat: textOrNull(d.taxvat),
  groupId: Number(d.groupId),
  isActive: d.isActive,
  disableAutoGroupChange: d.disableAutoGroupChange,
});

/** Magento's genders: 1 male, 2 female, 3 not specified. */
const GENDERS = ['1', '2', '3'];

export function AccountFields(props: {
  draft: AccountDraft;
  set: <K extends keyof AccountDraft>(k: K, v: AccountDraft[K]) => void;
  error: unknown;
  operationId: string;
  /** the website can be chosen only when the account is made */
  isNew: boolean;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const groups = useCustomerGroups();
  const websites = useWebsites();
  const { draft, set, error, operationId: op } = props;
  const text = (name: 'prefix' | 'firstname' | 'middlename' | 'lastname' | 'suffix' | 'taxvat', required = false) => (
    <TextField
      label={t(`customers.fields.${name}`)}
      name={name}
      operationId={op}
      error={error}
      required={required}
      maxLength={255}
      disabled={props.disabled}
      value={draft[name]}
      onChange={(e) => set(name, e.target.value)}
    />
  );
  return (
    <>
      <div className="form-grid">
        <TextField
          label={t('customers.fields.email')}
          name="email"
          type="email"
          operationId={op}
          error={error}
          required
          disabled={props.disabled}
          value={draft.email}
          onChange={(e) => set('email', e.target.value)}
        />
        {text('prefix')}
        {text('firstname', true)}
        {text('middlename')}
        {text('lastname', true)}
        {text('suffix')}
        <TextField
          label={t('customers.fields.dob')}
          name="dob"
          type="date"
          error={error}
          disabled={props.disabled}
          value={draft.dob}
          onChange={(e) => set('dob', e.target.value)}
        />
        <SelectField
          label={t('customers.fields.gender')}
          name="gender"
          error={error}
          disabled={props.disabled}
          value={draft.gender}
          onChange={(e) => set('gender', e.target.value)}
          options={[
            { value: '', label: t('customers.gender.none') },
            ...GENDERS.map((g) => ({ value: g, label: t(`customers.gender.${g}`) })),
          ]}
        />
        {text('taxvat')}
        <SelectField
          label={t('customers.fields.group')}
          name="groupId"
          error={error}
          disabled={props.disabled}
          value={draft.groupId}
          onChange={(e) => set('groupId', e.target.value)}
          options={
            groups.some((g) => String(g.id) === draft.groupId)
              ? groups.map((g) => ({ value: String(g.id), label: g.code }))
              : [{ value: draft.groupId, label: draft.groupId }, ...groups.map((g) => ({ value: String(g.id), label: g.code }))]
          }
        />
        {props.isNew ? (
          <SelectField
            label={t('customers.fields.website')}
            name="websiteId"
            error={error}
            value={draft.websiteId}
            onChange={(e) => set('websiteId', e.target.value)}
            options={websites.map((w) => ({ value: String(w.id), label: w.name }))}
          />
        ) : (
          <TextField
            label={t('customers.fields.website')}
            name="websiteId"
            readOnly
            hint={t('customers.fields.websiteFixed')}
            value={nameOf(websites, Number(draft.websiteId))}
          />
        )}
      </div>
      <CheckboxField
        label={t('customers.fields.active')}
        name="isActive"
        disabled={props.disabled}
        checked={draft.isActive}
        onChange={(e) => set('isActive', e.target.checked)}
      />
      <CheckboxField
        label={t('customers.fields.disableAutoGroupChange')}
        name="disableAutoGroupChange"
        disabled={props.disabled}
        checked={draft.disableAutoGroupChange}
        onChange={(e) => set('disableAutoGroupChange', e.target.checked)}
      />
    </>
  );
}
