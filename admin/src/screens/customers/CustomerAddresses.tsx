/**
 * A customer's address book: each address with its default roles, added and edited in a dialog, deleted, and made
 * the default billing or shipping address with one click.
 */
import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, unwrap, type Row } from '../../api/client';
import { useSession } from '../../auth/session';
import { CheckboxField, ErrorNote, Notice, SelectField, Spinner, TextField } from '../../components/ui';
import { ActionDialog } from '../sales/common';
import type { Customer } from './AccountFields';
import { Section, rowsOf, textOrNull, useCountries, useSubmit } from './shared';

export type Address = Row<'/api/rest/v2/customers/{customerId}/addresses'>;

interface AddressDraft {
  firstname: string;
  lastname: string;
  company: string;
  street1: string;
  street2: string;
  city: string;
  region: string;
  regionId: string;
  postcode: string;
  countryId: string;
  telephone: string;
  vatId: string;
  isDefaultBilling: boolean;
  isDefaultShipping: boolean;
}

const draftOf = (a: Address): AddressDraft => ({
  firstname: a.firstname,
  lastname: a.lastname,
  company: a.company ?? '',
  street1: a.street[0] ?? '',
  street2: a.street.slice(1).join(' '),
  city: a.city,
  region: a.region ?? '',
  regionId: a.regionId ? String(a.regionId) : '',
  postcode: a.postcode ?? '',
  countryId: a.countryId,
  telephone: a.telephone,
  vatId: a.vatId ?? '',
  isDefaultBilling: a.isDefaultBilling,
  isDefaultShipping: a.isDefaultShipping,
});

const bodyOf = (d: AddressDraft, hasRegions: boolean) => ({
  firstname: d.firstname.trim(),
  lastname: d.lastname.trim(),
  company: textOrNull(d.company),
  street: [d.street1.trim(), d.street2.trim()].filter(Boolean),
  city: d.city.trim(),
  // a country with a region list takes the region's id; the others a free text
  region: hasRegions ? null : textOrNull(d.region),
  regionId: hasRegions && d.regionId ? Number(d.regionId) : null,
  postcode: textOrNull(d.postcode),
  countryId: d.countryId,
  telephone: d.telephone.trim(),
  vatId: textOrNull(d.vatId),
  isDefaultBilling: d.isDefaultBilling,
  isDefaultShipping: d.isDefaultShipping,
});

export function CustomerAddresses({ customer }: { customer: Customer }) {
  const { t } = useTranslation();
  const session = useSession();
  const qc = useQueryClient();
  const [editing, setEditing] = useState<Address | 'new'>();
  const action = useSubmit();
  const key = ['customer-addresses', customer.id];
  const list = useQuery({
    queryKey: key,
    queryFn: async () =>
      rowsOf<Address>(
        await unwrap(api.GET('/api/rest/v2/customers/{customerId}/addresses', { params: { path: { customerId: customer.id } } })),
      ),
  });
  const refresh = async () => {
    await qc.invalidateQueries({ queryKey: key });
    await qc.invalidateQueries({ queryKey: ['customers', customer.id] });
  };
  const update = (a: Address, body: { isDefaultBilling?: boolean; isDefaultShipping?: boolean }, done: string) =>
    void action.run(async () => {
      await unwrap(
        api.PUT('/api/rest/v2/customers/{customerId}/addresses/{id}', { params: { path: { customerId: customer.id, id: a.id } }, body }),
      );
      await refresh();
      return done;
    });
  const remove = (a: Address) => {
    if (!window.confirm(t('customers.addresses.deleteConfirm'))) return;
    void action.run(async () => {
      await unwrap(
        api.DELETE('/api/rest/v2/customers/{customerId}/addresses/{id}', { params: { path: { customerId: customer.id, id: a.id } } }),
      );
      await refresh();
      return t('customers.addresses.deleted');
    });
  };
  const canWrite = session.can('addresses', 'write');

  return (
    <Section
      title={t('customers.addresses.title')}
      actions={
        session.can('addresses', 'create') && (
          <button type="button" className="primary" onClick={() => setEditing('new')}>
            {t('customers.addresses.add')}
          </button>
        )
      }
    >
      <ErrorNote error={action.error ?? list.error} />
      {action.done && <Notice>{action.done}</Notice>}
      {list.isPending ? (
        <Spinner />
      ) : list.data?.length ? (
        <ul className="cm-addresses" aria-label={t('customers.addresses.title')}>
          {list.data.map((a) => {
            const name = `${a.street[0] ?? ''}, ${a.city}`;
            return (
              <li key={a.id} aria-label={name}>
                <AddressText address={a} />
                <div>
                  {a.isDefaultBilling && <span className="cm-badge on">{t('customers.addresses.defaultBilling')}</span>}{' '}
                  {a.isDefaultShipping && <span className="cm-badge on">{t('customers.addresses.defaultShipping')}</span>}
                </div>
                {canWrite && (
                  <div className="cm-address-actions">
                    <button type="button" aria-label={t('customers.addresses.editOf', { name })} onClick={() => setEditing(a)}>
                      {t('common.edit')}
                    </button>
                    {!a.isDefaultBilling && (
                      <button
                        type="button"
                        disabled={action.busy}
                        aria-label={t('customers.addresses.makeBillingOf', { name })}
                        onClick={() => update(a, { isDefaultBilling: true }, t('customers.addresses.billingSet'))}
                      >
                        {t('customers.addresses.makeBilling')}
                      </button>
                    )}
                    {!a.isDefaultShipping && (
                      <button
                        type="button"
                        disabled={action.busy}
                        aria-label={t('customers.addresses.makeShippingOf', { name })}
                        onClick={() => update(a, { isDefaultShipping: true }, t('customers.addresses.shippingSet'))}
                      >
                        {t('customers.addresses.makeShipping')}
                      </button>
                    )}
                    {session.can('addresses', 'delete') && (
                      <button
                        type="button"
                        className="danger"
                        disabled={action.busy}
                        aria-label={t('customers.addresses.deleteOf', { name })}
                        onClick={() => remove(a)}
                      >
                        {t('common.delete')}
                      </button>
                    )}
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      ) : (
        <p className="cm-muted">{t('customers.addresses.none')}</p>
      )}
      {editing && (
        <AddressDialog
          customer={customer}
          address={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(undefined)}
          onSaved={async (message) => {
            setEditing(undefined);
            await refresh();
            void action.run(async () => message);
          }}
        />
      )}
    </Section>
  );
}

function AddressText({ address: a }: { address: Address }) {
  const lines = [
    [a.prefix, a.firstname, a.middlename, a.lastname, a.suffix].filter(Boolean).join(' '),
    a.company,
    ...a.street,
    [a.postcode, a.city].filter(Boolean).join(' '),
    [a.region, a.countryId].filter(Boolean).join(', '),
    a.telephone,
    a.vatId,
  ].filter((l): l is string => !!l);
  return (
    <address>
      {lines.map((l, i) => (
        <span key={i}>{l}</span>
      ))}
    </address>
  );
}

function AddressDialog(props: { customer: Customer; address?: Address; onClose: () => void; onSaved: (message: string) => Promise<void> }) {
  const { t } = useTranslation();
  const countries = useCountries();
  const c = props.customer;
  const [draft, setDraft] = useState<AddressDraft>(() =>
    props.address
      ? draftOf(props.address)
      : {
          firstname: c.firstname,
          lastname: c.lastname,
          company: '',
          street1: '',
          street2: '',
          city: '',
          region: '',
          regionId: '',
          postcode: '',
          countryId: c.defaultBillingAddress?.countryId ?? 'US',
          telephone: '',
          vatId: '',
          isDefaultBilling: !c.defaultBillingAddress,
          isDefaultShipping: !c.defaultShippingAddress,
        },
  );
  const submit = useSubmit();
  const set = <K extends keyof AddressDraft>(k: K, v: AddressDraft[K]) => setDraft((d) => ({ ...d, [k]: v }));
  const regions = countries.find((x) => x.id === draft.countryId)?.availableRegions ?? [];
  const op = props.address ? 'customers.addresses.updateFor' : 'customers.addresses.createFor';
  const field = (
    name: 'firstname' | 'lastname' | 'company' | 'street1' | 'street2' | 'city' | 'postcode' | 'telephone' | 'vatId',
    required = false,
  ) => (
    <TextField
      label={t(`customers.addresses.fields.${name}`)}
      name={name.startsWith('street') ? 'street' : name}
      operationId={op}
      error={submit.error}
      required={required}
      maxLength={255}
      value={draft[name]}
      onChange={(e) => set(name, e.target.value)}
    />
  );

  function save() {
    void submit.run(async () => {
      const body = bodyOf(draft, regions.length > 0);
      if (props.address) {
        await unwrap(
          api.PUT('/api/rest/v2/customers/{customerId}/addresses/{id}', {
            params: { path: { customerId: c.id, id: props.address.id } },
            body,
          }),
        );
        await props.onSaved(t('customers.addresses.saved'));
      } else {
        await unwrap(api.POST('/api/rest/v2/customers/{customerId}/addresses', { params: { path: { customerId: c.id } }, body }));
        await props.onSaved(t('customers.addresses.added'));
      }
    });
  }

  return (
    <ActionDialog
      open
      wide
      onOpenChange={(open) => !open && props.onClose()}
      title={props.address ? t('customers.addresses.editTitle') : t('customers.addresses.addTitle')}
      submitLabel={t('common.save')}
      busy={submit.busy}
      error={submit.error}
      onSubmit={save}
    >
      <div className="form-grid">
        {field('firstname', true)}
        {field('lastname', true)}
        {field('company')}
        {field('telephone', true)}
        {field('street1', true)}
        {field('street2')}
        {field('city', true)}
        {field('postcode')}
        <SelectField
          label={t('customers.addresses.fields.country')}
          name="countryId"
          error={submit.error}
          required
          value={draft.countryId}
          onChange={(e) => setDraft((d) => ({ ...d, countryId: e.target.value, regionId: '', region: '' }))}
          options={
            countries.length ? countries.map((x) => ({ value: x.id, label: x.name })) : [{ value: draft.countryId, label: draft.countryId }]
          }
        />
        {regions.length > 0 ? (
          <SelectField
            label={t('customers.addresses.fields.region')}
            name="regionId"
            error={submit.error}
            value={draft.regionId}
            onChange={(e) => set('regionId', e.target.value)}
            options={[
              { value: '', label: t('customers.addresses.chooseRegion') },
              ...regions.map((r) => ({ value: String(r.id), label: r.name })),
            ]}
          />
        ) : (
          <TextField
            label={t('customers.addresses.fields.region')}
            name="region"
            error={submit.error}
            maxLength={255}
            value={draft.region}
            onChange={(e) => set('region', e.target.value)}
          />
        )}
        {field('vatId')}
      </div>
      <CheckboxField
        label={t('customers.addresses.defaultBilling')}
        name="isDefaultBilling"
        checked={draft.isDefaultBilling}
        onChange={(e) => set('isDefaultBilling', e.target.checked)}
      />
      <CheckboxField
        label={t('customers.addresses.defaultShipping')}
        name="isDefaultShipping"
        checked={draft.isDefaultShipping}
        onChange={(e) => set('isDefaultShipping', e.target.checked)}
      />
    </ActionDialog>
  );
}
