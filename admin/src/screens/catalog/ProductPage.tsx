/**
 * One product: its attributes by attribute set group in the chosen scope (default or a store view), prices, stock,
 * images, categories, the parts of its type (variants, bundle options, grouped products, downloadable links),
 * custom options and related products, each tab saved on its own.
 */
import { useState } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../../api/client';
import { useSession } from '../../auth/session';
import { ErrorNote, PageHeader, Spinner, StoreScopeSwitch } from '../../components/ui';
import { AttributesForm } from './product/AttributesForm';
import { CategoriesSection } from './product/CategoriesSection';
import { ImagesSection } from './product/ImagesSection';
import { PricesSection } from './product/PricesSection';
import { StockSection } from './product/StockSection';
import { TypeSection, typeTab } from './product/TypeSection';
import { CustomOptionsSection } from './product/CustomOptionsSection';
import { LinksSection } from './product/LinksSection';
import { TabPanel, Tabs, inStore, useAttributeSets, useAttributes } from './shared';
import './catalog.css';

export function ProductPage({ productId }: { productId: number }) {
  const { t } = useTranslation();
  const { can } = useSession();
  const navigate = useNavigate();
  const [scope, setScope] = useState('');
  const [tab, setTab] = useState('general');
  const [error, setError] = useState<unknown>();
  const product = useQuery({
    queryKey: ['catalog', 'product', productId, ''],
    queryFn: () => unwrap(api.GET('/api/rest/v2/products/{id}', { params: { path: { id: productId } } })),
  });
  const scoped = useQuery({
    queryKey: ['catalog', 'product', productId, scope],
    enabled: scope !== '',
    queryFn: () => unwrap(api.GET('/api/rest/v2/products/{id}', { params: { path: { id: productId } }, ...inStore(scope) })),
  });
  const attributes = useAttributes();
  const sets = useAttributeSets();

  if (product.error) return <ErrorNote error={product.error} />;
  if (!product.data || !attributes.data || !sets.data || (scope && !scoped.data)) return <Spinner />;
  const p = product.data;
  const set = sets.data.find((s) => s.id === p.attributeSetId);
  const typeLabel = typeTab(p.type);
  const tabs = [
    { id: 'general', label: t('catalog.product.tabGeneral') },
    { id: 'prices', label: t('catalog.product.tabPrices') },
    { id: 'stock', label: t('catalog.product.tabStock') },
    { id: 'images', label: t('catalog.product.tabImages') },
    { id: 'categories', label: t('catalog.product.tabCategories') },
    ...(typeLabel ? [{ id: 'type', label: t(typeLabel) }] : []),
    { id: 'options', label: t('catalog.product.tabOptions') },
    { id: 'links', label: t('catalog.product.tabLinks') },
  ];
  const current = tabs.find((x) => x.id === tab) ?? tabs[0];

  async function remove() {
    if (!window.confirm(t('catalog.product.confirmDelete', { name: p.name }))) return;
    try {
      await unwrap(api.DELETE('/api/rest/v2/products/{id}', { params: { path: { id: p.id } } }));
      await navigate({ to: '/products' });
    } catch (err) {
      setError(err);
    }
  }

  return (
    <>
      <PageHeader
        title={(scoped.data ?? p).name}
        actions={
          <>
            <Link to="/products" className="button">
              {t('catalog.product.back')}
            </Link>
            {can('products', 'delete') && (
              <button type="button" className="danger" onClick={remove}>
                {t('catalog.product.delete')}
              </button>
            )}
          </>
        }
      >
        <p className="subtitle">
          {t(`catalog.type.${p.type}`, { defaultValue: p.type })} · {t('catalog.products.sku')} {p.sku} · {set?.attributeSetName}
        </p>
      </PageHeader>
      <ErrorNote error={error ?? scoped.error} />
      <Tabs label={t('catalog.product.sections')} tabs={tabs} value={current.id} onChange={setTab} />
      <TabPanel label={current.label}>
        {current.id === 'general' && (
          <>
            <StoreScopeSwitch value={scope} onChange={setScope} />
            <AttributesForm
              key={scope}
              product={p}
              scoped={scope ? scoped.data : undefined}
              scope={scope}
              attributes={attributes.data}
              set={set}
            />
          </>
        )}
        {current.id === 'prices' && <PricesSection productId={p.id} />}
        {current.id === 'stock' && <StockSection product={p} />}
        {current.id === 'images' && <ImagesSection productId={p.id} />}
        {current.id === 'categories' && <CategoriesSection product={p} />}
        {current.id === 'type' && <TypeSection product={p} attributes={attributes.data} />}
        {current.id === 'options' && <CustomOptionsSection productId={p.id} />}
        {current.id === 'links' && <LinksSection productId={p.id} />}
      </TabPanel>
    </>
  );
}
