/**
 * A blog post: title, URL key, content in the rich-text editor, teaser, image from the media library, publish date,
 * categories, store views, status and meta data.
 */
import { useState } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { api, unwrap, type Answer } from '../../api/client';
import { useSession } from '../../auth/session';
import { CheckboxField, ErrorNote, Notice, PageHeader, SelectField, Spinner, TextArea, TextField, fieldError } from '../../components/ui';
import { categoryLabel, useBlogCategories } from './blogCategories';
import { ROBOTS } from './CmsPageForm';
import { Editor } from './Editor';
import { mediaSrc } from './html';
import { MediaPickerDialog } from './MediaPicker';
import { FormSection, StoresField, fromLocalInput, orNull, toLocalInput, useEntityForm } from './shared';

type Post = Answer<'/api/rest/v2/blog-posts/{id}', 'get'>;

interface Draft {
  title: string;
  urlKey: string;
  content: string;
  shortContent: string;
  image: string;
  publishDate: string;
  isActive: boolean;
  stores: number[];
  categoryIds: number[];
  metaTitle: string;
  metaDescription: string;
  metaKeywords: string;
  metaRobots: string;
}

const EMPTY: Draft = {
  title: '',
  urlKey: '',
  content: '',
  shortContent: '',
  image: '',
  publishDate: '',
  isActive: true,
  stores: [0],
  categoryIds: [],
  metaTitle: '',
  metaDescription: '',
  metaKeywords: '',
  metaRobots: '',
};

const draftOf = (p: Post): Draft => ({
  title: p.title,
  urlKey: p.urlKey,
  content: p.content,
  shortContent: p.shortContent ?? '',
  image: p.image ?? '',
  publishDate: toLocalInput(p.publishDate),
  isActive: p.isActive,
  stores: p.stores,
  categoryIds: p.categoryIds,
  metaTitle: p.metaTitle ?? '',
  metaDescription: p.metaDescription ?? '',
  metaKeywords: p.metaKeywords ?? '',
  metaRobots: p.metaRobots ?? '',
});

const bodyOf = (d: Draft) => ({
  title: d.title,
  ...(d.urlKey.trim() ? { urlKey: d.urlKey.trim() } : {}),
  content: d.content,
  shortContent: orNull(d.shortContent),
  image: orNull(d.image),
  publishDate: fromLocalInput(d.publishDate),
  isActive: d.isActive,
  stores: d.stores,
  categoryIds: d.categoryIds,
  metaTitle: orNull(d.metaTitle),
  metaDescription: orNull(d.metaDescription),
  metaKeywords: orNull(d.metaKeywords),
  metaRobots: orNull(d.metaRobots),
});

export function BlogPostForm({ postId }: { postId?: number }) {
  const { t } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  const categories = useBlogCategories();
  const [picking, setPicking] = useState(false);
  const form = useEntityForm<Post, Draft>({
    kind: 'blog-posts',
    id: postId,
    load: (id) => unwrap(api.GET('/api/rest/v2/blog-posts/{id}', { params: { path: { id } } })),
    toDraft: draftOf,
    empty: EMPTY,
    create: (d) => unwrap(api.POST('/api/rest/v2/blog-posts', { body: bodyOf(d) })),
    update: (id, d) => unwrap(api.PUT('/api/rest/v2/blog-posts/{id}', { params: { path: { id } }, body: bodyOf(d) })),
    remove: (id) => unwrap(api.DELETE('/api/rest/v2/blog-posts/{id}', { params: { path: { id } } })),
    deleteConfirm: t('content.posts.deleteConfirm'),
    onCreated: (p) => navigate({ to: '/blog-posts/$postId', params: { postId: String(p.id) }, replace: true }),
    onDeleted: () => navigate({ to: '/blog-posts' }),
  });
  if (form.loading) return <Spinner />;
  if (form.loadError) return <ErrorNote error={form.loadError} />;
  const { draft, set, error } = form;
  const op = postId === undefined ? 'blogPosts.create' : 'blogPosts.update';
  const canSave = session.can('blog-posts', postId === undefined ? 'create' : 'write');
  const imageError = fieldError(error, 'image');
  return (
    <>
      <PageHeader
        title={form.item ? t('content.posts.editTitle', { title: form.item.title }) : t('content.posts.new')}
        actions={
          <>
            <Link to="/blog-posts" className="button">
              {t('common.back')}
            </Link>
            {form.item && session.can('blog-posts', 'delete') && (
              <button type="button" className="danger" disabled={form.busy} onClick={form.remove}>
                {t('common.delete')}
              </button>
            )}
          </>
        }
      />
      <form className="content-form" onSubmit={form.save} aria-label={t('content.posts.form')}>
        <ErrorNote error={error} />
        {form.done && <Notice>{form.done}</Notice>}
        <FormSection title={t('content.sections.general')}>
          <div className="form-grid">
            <TextField
              label={t('content.fields.title')}
              name="title"
              operationId={op}
              error={error}
              required
              value={draft.title}
              onChange={(e) => set('title', e.target.value)}
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
            <TextField
              label={t('content.fields.publishDate')}
              name="publishDate"
              type="datetime-local"
              error={error}
              hint={t('content.fields.publishDateHint')}
              value={draft.publishDate}
              onChange={(e) => set('publishDate', e.target.value)}
            />
          </div>
          <CheckboxField
            label={t('content.fields.active')}
            name="isActive"
            checked={draft.isActive}
            onChange={(e) => set('isActive', e.target.checked)}
          />
          <StoresField value={draft.stores} onChange={(v) => set('stores', v)} error={error} />
          <fieldset className="content-categories">
            <legend>{t('content.fields.categories')}</legend>
            {categories.length === 0 && <p className="hint">{t('content.categories.none')}</p>}
            {categories.map((c) => (
              <label key={c.id} className="checkbox">
                <input
                  type="checkbox"
                  checked={draft.categoryIds.includes(c.id)}
                  onChange={(e) =>
                    set('categoryIds', e.target.checked ? [...draft.categoryIds, c.id] : draft.categoryIds.filter((x) => x !== c.id))
                  }
                />
                {categoryLabel(c, categories)}
              </label>
            ))}
            {fieldError(error, 'categoryIds') && <small className="field-error">{fieldError(error, 'categoryIds')}</small>}
          </fieldset>
        </FormSection>
        <FormSection title={t('content.sections.content')}>
          <Editor
            label={t('content.fields.content')}
            value={draft.content}
            onChange={(v) => set('content', v)}
            error={fieldError(error, 'content')}
          />
          <TextArea
            label={t('content.fields.shortContent')}
            name="shortContent"
            error={error}
            rows={3}
            value={draft.shortContent}
            onChange={(e) => set('shortContent', e.target.value)}
          />
          <div className="content-image field">
            <span className="rte-label" id="post-image-label">
              {t('content.fields.image')}
            </span>
            {draft.image ? (
              <img src={mediaSrc(draft.image)} alt={t('content.fields.imagePreview')} />
            ) : (
              <p className="hint">{t('content.fields.noImage')}</p>
            )}
            <div className="form-actions">
              <button type="button" aria-describedby="post-image-label" onClick={() => setPicking(true)}>
                {t('content.fields.chooseImage')}
              </button>
              {draft.image && (
                <button type="button" aria-describedby="post-image-label" onClick={() => set('image', '')}>
                  {t('content.fields.removeImage')}
                </button>
              )}
            </div>
            {imageError && <small className="field-error">{imageError}</small>}
          </div>
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
          <SelectField
            label={t('content.fields.metaRobots')}
            name="metaRobots"
            error={error}
            value={draft.metaRobots}
            onChange={(e) => set('metaRobots', e.target.value)}
            options={[{ value: '', label: t('content.fields.robotsDefault') }, ...ROBOTS.map((r) => ({ value: r, label: r }))]}
          />
        </FormSection>
        {canSave && (
          <div className="form-actions">
            <button type="submit" className="primary" disabled={form.busy || (postId !== undefined && !form.dirty)}>
              {t('common.save')}
            </button>
          </div>
        )}
      </form>
      {picking && (
        <MediaPickerDialog
          withAlt={false}
          onClose={() => setPicking(false)}
          onPick={(item) => {
            setPicking(false);
            set('image', item.path);
          }}
        />
      )}
    </>
  );
}
