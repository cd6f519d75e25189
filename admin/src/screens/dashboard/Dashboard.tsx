/**
 * The dashboard: sales, orders and average order value over a chosen range with a chart per period, the
 * bestsellers, stock running low, the latest orders, new customers and the last searches. Each panel is shown
 * only to a role allowed to read it.
 */
import { useMemo, useState } from 'react';
import { Link } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../../api/client';
import { useSession } from '../../auth/session';
import { LineChart } from '../../components/Chart';
import { ErrorNote, PageHeader, Spinner } from '../../components/ui';
import { formatDate, formatMoney, formatNumber } from '../../i18n';

const RANGES = [7, 30, 90, 365] as const;

function isoDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}

export function Dashboard() {
  const { t } = useTranslation();
  const session = useSession();
  const [days, setDays] = useState<number>(30);
  const range = useMemo(() => {
    const to = new Date();
    const from = new Date(to.getTime() - (days - 1) * 86_400_000);
    return { from: isoDay(from), to: isoDay(to), period: days > 120 ? 'week' : 'day' };
  }, [days]);
  const canReports = session.can('reports');
  const sales = useQuery({
    queryKey: ['dashboard', 'sales', range],
    queryFn: () => unwrap(api.GET('/api/rest/v2/reports/sales', { params: { query: range } })),
    enabled: canReports,
  });
  const best = useQuery({
    queryKey: ['dashboard', 'bestsellers', range],
    queryFn: () => unwrap(api.GET('/api/rest/v2/reports/bestsellers', { params: { query: { from: range.from, to: range.to, limit: 5 } } })),
    enabled: canReports,
  });
  const newCustomers = useQuery({
    queryKey: ['dashboard', 'newCustomers', range],
    queryFn: () => unwrap(api.GET('/api/rest/v2/reports/new-customers', { params: { query: range } })),
    enabled: canReports,
  });
  const searches = useQuery({
    queryKey: ['dashboard', 'searches', range],
    queryFn: () =>
      unwrap(api.GET('/api/rest/v2/reports/search-terms', { params: { query: { from: range.from, to: range.to, limit: 5 } } })),
    enabled: canReports,
  });
  const lowStock = useQuery({
    queryKey: ['dashboard', 'lowStock'],
    queryFn: () => unwrap(api.GET('/api/rest/v2/reports/low-stock', { params: { query: { itemsPerPage: 5 } } })),
    enabled: canReports,
  });
  const latest = useQuery({
    queryKey: ['dashboard', 'latestOrders'],
    queryFn: () => unwrap(api.GET('/api/rest/v2/orders', { params: { query: { itemsPerPage: 5 } } })),
    enabled: session.can('orders'),
  });

  const currency = sales.data?.currency ?? 'USD';
  const money = useMemo(() => (v: number) => formatMoney(v, currency), [currency]);
  // every day of the range, those without orders at 0 (the report lists only days with orders)
  const [periods, revenue] = useMemo(() => {
    const rows = sales.data?.rows ?? [];
    if (range.period !== 'day') return [rows.map((r) => r.period), rows.map((r) => Number(r.revenue))];
    const byDay = new Map(rows.map((r) => [r.period, Number(r.revenue)]));
    const days: string[] = [];
    for (let d = Date.parse(`${range.from}T00:00:00Z`); d <= Date.parse(`${range.to}T00:00:00Z`); d += 86_400_000)
      days.push(isoDay(new Date(d)));
    return [days, days.map((d) => byDay.get(d) ?? 0)];
  }, [sales.data, range]);
  const lowStockRows =
    (lowStock.data as { member?: { productId: number; sku: string; name: string; qty: number }[] } | undefined)?.member ?? [];
  const latestRows =
    (
      latest.data as
        | {
            member?: {
              id: number;
              incrementId: string;
              customerEmail?: string;
              grandTotal: string;
              currency?: string;
              status: string;
              createdAt: string;
            }[];
          }
        | undefined
    )?.member ?? [];

  return (
    <>
      <PageHeader title={t('dashboard.title')}>
        <div className="range-switch" role="group" aria-label={t('dashboard.range')}>
          {RANGES.map((d) => (
            <button key={d} type="button" aria-pressed={days === d} onClick={() => setDays(d)}>
              {t('dashboard.lastDays', { count: d })}
            </button>
          ))}
        </div>
      </PageHeader>
      {canReports && (
        <>
          <ErrorNote error={sales.error} />
          {sales.isPending ? (
            <Spinner />
          ) : sales.data ? (
            <>
              <dl className="tiles">
                <div>
                  <dt>{t('dashboard.revenue')}</dt>
                  <dd>{formatMoney(sales.data.total.revenue, currency)}</dd>
                </div>
                <div>
                  <dt>{t('dashboard.orders')}</dt>
                  <dd>{formatNumber(sales.data.total.orders)}</dd>
                </div>
                <div>
                  <dt>{t('dashboard.averageOrderValue')}</dt>
                  <dd>{formatMoney(sales.data.total.averageOrderValue, currency)}</dd>
                </div>
                <div>
                  <dt>{t('dashboard.newCustomers')}</dt>
                  <dd>{formatNumber(newCustomers.data?.total)}</dd>
                </div>
              </dl>
              <section className="panel">
                <h2>{t('dashboard.revenueChart')}</h2>
                <LineChart label={t('dashboard.revenueChart')} periods={periods} values={revenue} format={money} />
              </section>
            </>
          ) : null}
          <div className="panels">
            <section className="panel">
              <h2>{t('dashboard.bestsellers')}</h2>
              <ErrorNote error={best.error} />
              <table>
                <thead>
                  <tr>
                    <th scope="col">{t('dashboard.product')}</th>
                    <th scope="col" className="num">
                      {t('dashboard.qty')}
                    </th>
                    <th scope="col" className="num">
                      {t('dashboard.revenue')}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {best.data?.rows.map((r) => (
                    <tr key={r.productId}>
                      <td>
                        {r.name} <small>{r.sku}</small>
                      </td>
                      <td className="num">{formatNumber(r.qty)}</td>
                      <td className="num">{formatMoney(r.revenue, currency)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
            <section className="panel">
              <h2>{t('dashboard.lowStock')}</h2>
              <ErrorNote error={lowStock.error} />
              <table>
                <thead>
                  <tr>
                    <th scope="col">{t('dashboard.product')}</th>
                    <th scope="col" className="num">
                      {t('dashboard.qty')}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {lowStockRows.map((r) => (
                    <tr key={r.productId}>
                      <td>
                        {r.name} <small>{r.sku}</small>
                      </td>
                      <td className="num">{formatNumber(r.qty)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
            <section className="panel">
              <h2>{t('dashboard.lastSearches')}</h2>
              <ErrorNote error={searches.error} />
              <table>
                <thead>
                  <tr>
                    <th scope="col">{t('dashboard.term')}</th>
                    <th scope="col" className="num">
                      {t('dashboard.hits')}
                    </th>
                    <th scope="col" className="num">
                      {t('dashboard.results')}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {searches.data?.rows.map((r) => (
                    <tr key={r.term}>
                      <td>{r.term}</td>
                      <td className="num">{formatNumber(r.hits)}</td>
                      <td className="num">{formatNumber(r.results)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
          </div>
        </>
      )}
      {session.can('orders') && (
        <section className="panel">
          <h2>{t('dashboard.latestOrders')}</h2>
          <ErrorNote error={latest.error} />
          <table>
            <thead>
              <tr>
                <th scope="col">{t('orders.number')}</th>
                <th scope="col">{t('orders.date')}</th>
                <th scope="col">{t('orders.customer')}</th>
                <th scope="col">{t('orders.status')}</th>
                <th scope="col" className="num">
                  {t('orders.grandTotal')}
                </th>
              </tr>
            </thead>
            <tbody>
              {latestRows.map((o) => (
                <tr key={o.id}>
                  <td>
                    <Link to={'/orders/$orderId' as never} params={{ orderId: String(o.id) } as never}>
                      {o.incrementId}
                    </Link>
                  </td>
                  <td>{formatDate(o.createdAt)}</td>
                  <td>{o.customerEmail}</td>
                  <td>{o.status}</td>
                  <td className="num">{formatMoney(o.grandTotal, o.currency)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
    </>
  );
}
