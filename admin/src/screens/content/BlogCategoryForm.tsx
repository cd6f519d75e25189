/** A blog category: name, URL key, parent (never itself or below itself), position, store views, status, meta data. */
import { Link, useNavigate } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, unwrap, type Answer } from '../../api/client';
import { useSession } from '../../auth/session';
import { CheckboxField, ErrorNote, Notice, PageHeader, SelectField, Spinner, TextArea, TextField } from '../../components/ui';
import { categoryLabel, useBlogCategories } from './blogCategories';
import { FormSection, StoresField, orNull, useEntityForm } from './shared';

type Category = Answer<'/api/rest/v2/blog-categories/{id}', 'get'>;

interface Draft {
  name: string;
  urlKey: string;
  parentId: string;
  position: string;
  isActive: boolean;
  stores: number[];
  metaTitle: string;
  metaDescription: string;
  metaKeywords: string;
}

const EMPTY: Draft = {
  name: '',
  urlKey: '',
  parentId: '',
  position: '0',
  isActive: true,
  stores: [0],
  metaTitle: '',
  metaDescription: '',
  metaKeywords: '',
};

const draftOf = (c: Category): Draft => ({
  name: c.name,
  urlKey: c.urlKey,
  parentId: c.parentId ? String(c.parentId) : '',
  position: String(c.position),
  isActive: c.isActive,
  stores: c.stores,
  metaTitle: c.metaTitle ?? '',
  metaDescription: c.metaDescription ?? '',
  metaKeywords: c.metaKeywords ?? '',
});

const bodyOf = (d: Draft) => ({
  name: d.name,
  ...(d.urlKey.trim() ? { urlKey: d.urlKey.trim() } : {}),
  parentId: d.parentId ? Number(d.parentId) : null,
  position: Number(d.position || 0),
  isActive: d.isActive,
  stores: d.stores,
  metaTitle: orNull(d.metaTitle),
  metaDescription: orNull(d.metaDescription),
  metaKeywords: orNull(d.metaKeywords),
});

export function BlogCategoryForm({ categoryId }: { categoryId?: number }) {
  const { t } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const all = useBlogCategories();
  const refreshAll = () => qc.invalidateQueries({ queryKey: ['blog-categories', 'all'] });
  const form = useEntityForm<Category, Draft>({
    kind: 'blog-categories',
    id: categoryId,
    load: (id) => unwrap(api.GET('/api/rest/v2/blog-categories/{id}', { params: { path: { id } } })),
    toDraft: draftOf,
    empty: EMPTY,
    create: async (d) => {
      const c = await unwrap(api.POST('/api/rest/v2/blog-categories', { body: bodyOf(d) }));
      await refreshAll();
      return c;
    },
    update: async (id, d) => {
      const c = await unwrap(api.PUT('/api/rest/v2/blog-categories/{id}', { params: { path: { id } }, body: bodyOf(d) }));
      await refreshAll();
      return c;
    },
    remove: async (id) => {
      await unwrap(api.DELETE('/api/rest/v2/blog-categories/{id}', { params: { path: { id } } }));
      await refreshAll();
    },
    deleteConfirm: t('content.categories.deleteConfirm'),
    onCreated: (c) => navigate({ to: '/blog-categories/$categoryId', params: { categoryId: String(c.id) }, replace: true }),
    onDeleted: () => navigate({ to: '/blog-categories' }),
  });
  if (form.loading) return <Spinner />;
  if (form.loadError) return <ErrorNote error={form.loadError} />;
  const { draft, set, error } = form;
  const op = categoryId === undefined ? 'blogCategories.create' : 'blogCategories.update';
  const canSave = session.can('blog-categories', categoryId === undefined ? 'create' : 'write');
  // a category cannot move below itself
  const parents = all.filter((c) => categoryId === undefined || !c.path.split('/').includes(String(categoryId)));
  return (
    <>
      <PageHeader
        title={form.item ? t('content.categories.editTitle', { name: form.item.name }) : t('content.categories.new')}
        actions={
          <>
            <Link to="/blog-categories" className="button">
              {t('common.back')}
            </Link>
            {form.item && session.can('blog-categories', 'delete') && (
              <button type="button" className="danger" disabled={form.busy} onClick={form.remove}>
                {t('common.delete')}
              </button>
            )}
          </>
        }
      />
      <form className="content-form" onSubmit={form.save} aria-label={t('content.categories.form')}>
        <ErrorNote error={error} />
        {form.done && <Notice>{form.done}</Notice>}
        <FormSection title={t('content.sections.general')}>
          <div className="form-grid">
            <TextField
              label={t('content.fields.name')}
              name="name"
              operationId={op}
              error={error}
              required
              value={draft.name}
              onChange={(e) => set('name', e.target.value)}
            />
            <TextField
              label={t('content.fields.urlKey')}
              name="urlKey"
              operationId={op}
              error={error}
              maxLength={100}
              hint={t('content.fields.urlKeyHint')}
              value={draft.urlKey}
              onChange={(e) => set('urlKey', e.target.value)}
            />
            <SelectField
              label={t('content.fields.parent')}
              name="parentId"
              error={error}
              value={draft.parentId}
              onChange={(e) => set('parentId', e.target.value)}
              options={[
                { value: '', label: t('content.categories.topLevel') },
                ...parents.map((c) => ({ value: String(c.id), label: categoryLabel(c, all) })),
              ]}
            />
            <TextField
              label={t('content.fields.position')}
              name="position"
              type="number"
              step={1}
              operationId={op}
              error={error}
              value={draft.position}
              onChange={(e) => set('position', e.target.value)}
            />
          </div>
          <CheckboxField
            label={t('content.fields.active')}
            name="isActive"
            checked={draft.isActive}
            onChange={(e) => set('isActive', e.target.checked)}
          />
          <StoresField value={draft.stores} onChange={(v) => set('stores', v)} error={error} />
        </FormSection>
        <FormSection title={t('content.sections.meta')}>
          <TextField
            label={t('content.fields.metaTitle')}
            name="metaTitle"
            operationId={op}
            error={error}
            value={draft.metaTitle}
            onChange={(e) => set('metaTitle', e.target.value)}
          />
          <TextArea
            label={t('content.fields.metaKeywords')}
            name="metaKeywords"
            error={error}
            rows={2}
            value={draft.metaKeywords}
            onChange={(e) => set('metaKeywords', e.target.value)}
          />
          <TextArea
            label={t('content.fields.metaDescription')}
            name="metaDescription"
            error={error}
            rows={3}
            value={draft.metaDescription}
            onChange={(e) => set('metaDescription', e.target.value)}
          />
        </FormSection>
        {canSave && (
          <div className="form-actions">
            <button type="submit" className="primary" disabled={form.busy || (categoryId !== undefined && !form.dirty)}>
              {t('common.save')}
            </button>
          </div>
        )}
      </form>
    </>
  );
}
