/** One review: what the shopper wrote and the votes, its status and the store views it shows in. */
import { useEffect, useState, type FormEvent } from 'react';
import { Link } from '@tanstack/react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../../api/client';
import { useSession } from '../../auth/session';
import { CheckboxField, ErrorNote, Notice, PageHeader, SelectField, Spinner, useStoreViews, useUnsavedChanges } from '../../components/ui';
import { formatDate } from '../../i18n';
import { REVIEW_STATUSES } from './ReviewsGrid';
import './catalog.css';

export function ReviewPage({ reviewId }: { reviewId: number }) {
  const { t } = useTranslation();
  const { can } = useSession();
  const qc = useQueryClient();
  const stores = useStoreViews();
  const review = useQuery({
    queryKey: ['catalog', 'review', reviewId],
    queryFn: () => unwrap(api.GET('/api/rest/v2/reviews/{id}', { params: { path: { id: reviewId } } })),
  });
  const [status, setStatus] = useState('');
  const [shownIn, setShownIn] = useState<number[]>([]);
  const [error, setError] = useState<unknown>();
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    if (review.data) {
      setStatus(review.data.status);
      setShownIn(review.data.stores);
    }
  }, [review.data]);
  const dirty =
    !!review.data &&
    (status !== review.data.status || JSON.stringify([...shownIn].sort()) !== JSON.stringify([...review.data.stores].sort()));
  useUnsavedChanges(dirty);
  if (review.error) return <ErrorNote error={review.error} />;
  if (!review.data) return <Spinner />;
  const r = review.data;
  const writable = can('reviews', 'write');

  async function save(e: FormEvent) {
    e.preventDefault();
    setError(undefined);
    setSaved(false);
    try {
      await unwrap(
        api.PUT('/api/rest/v2/reviews/{id}', {
          params: { path: { id: reviewId } },
          body: { status: status as (typeof REVIEW_STATUSES)[number], stores: shownIn },
        }),
      );
      await qc.invalidateQueries({ queryKey: ['catalog', 'review', reviewId] });
      await qc.invalidateQueries({ queryKey: ['grid', 'reviews'] });
      setSaved(true);
    } catch (err) {
      setError(err);
    }
  }
  return (
    <>
      <PageHeader
        title={r.title}
        actions={
          <Link to="/reviews" className="button">
            {t('catalog.reviews.back')}
          </Link>
        }
      />
      <section className="panel" aria-label={t('catalog.reviews.content')}>
        <dl className="facts">
          <dt>{t('catalog.reviews.product')}</dt>
          <dd>
            <Link to="/products/$productId" params={{ productId: String(r.productId) }}>
              {r.productName ?? r.productId}
            </Link>
          </dd>
          <dt>{t('catalog.reviews.nickname')}</dt>
          <dd>{r.nickname}</dd>
          <dt>{t('catalog.reviews.createdAt')}</dt>
          <dd>{formatDate(r.createdAt)}</dd>
          {r.ratings.map((v) => (
            <div key={v.code}>
              <dt>{v.code}</dt>
              <dd>{t('catalog.reviews.stars', { count: v.value })}</dd>
            </div>
          ))}
        </dl>
        <p className="review-detail">{r.detail}</p>
      </section>
      <form className="panel" onSubmit={save} aria-label={t('catalog.reviews.moderation')}>
        <h2>{t('catalog.reviews.moderation')}</h2>
        <SelectField
          label={t('catalog.reviews.status')}
          name="status"
          error={error}
          disabled={!writable}
          value={status}
          onChange={(e) => setStatus(e.target.value)}
          options={REVIEW_STATUSES.map((s) => ({ value: s, label: t(`catalog.reviews.state.${s}`) }))}
        />
        <fieldset>
          <legend>{t('catalog.reviews.storeViews')}</legend>
          {stores.map((s) => (
            <CheckboxField
              key={s.id}
              label={s.name}
              name={`store-${s.code}`}
              disabled={!writable}
              checked={shownIn.includes(s.id)}
              onChange={(e) => setShownIn((l) => (e.target.checked ? [...l, s.id] : l.filter((x) => x !== s.id)))}
            />
          ))}
        </fieldset>
        <ErrorNote error={error} />
        {saved && !dirty && <Notice>{t('common.saved')}</Notice>}
        {writable && (
          <div className="form-actions">
            <button type="submit" className="primary" disabled={!dirty}>
              {t('catalog.reviews.save')}
            </button>
          </div>
        )}
      </form>
    </>
  );
}
