/** A CMS page: title, URL key, content in the rich-text editor, store views, status, layout and meta data. */
import { Link, useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { api, unwrap, type Answer } from '../../api/client';
import { useSession } from '../../auth/session';
import { CheckboxField, ErrorNote, Notice, PageHeader, SelectField, Spinner, TextArea, TextField, fieldError } from '../../components/ui';
import { Editor } from './Editor';
import { FormSection, StoresField, orNull, useEntityForm } from './shared';

type CmsPage = Answer<'/api/rest/v2/cms-pages/{id}', 'get'>;

interface Draft {
  title: string;
  identifier: string;
  contentHeading: string;
  content: string;
  isActive: boolean;
  stores: number[];
  pageLayout: string;
  metaKeywords: string;
  metaDescription: string;
  metaRobots: string;
}

const EMPTY: Draft = {
  title: '',
  identifier: '',
  contentHeading: '',
  content: '',
  isActive: true,
  stores: [0],
  pageLayout: '',
  metaKeywords: '',
  metaDescription: '',
  metaRobots: '',
};

const draftOf = (p: CmsPage): Draft => ({
  title: p.title,
  identifier: p.identifier,
  contentHeading: p.contentHeading ?? '',
  content: p.content,
  isActive: p.isActive,
  stores: p.stores,
  pageLayout: p.pageLayout ?? '',
  metaKeywords: p.metaKeywords ?? '',
  metaDescription: p.metaDescription ?? '',
  metaRobots: p.metaRobots ?? '',
});

const bodyOf = (d: Draft) => ({
  title: d.title,
  identifier: d.identifier.trim(),
  contentHeading: orNull(d.contentHeading),
  content: d.content,
  isActive: d.isActive,
  stores: d.stores,
  pageLayout: orNull(d.pageLayout),
  metaKeywords: orNull(d.metaKeywords),
  metaDescription: orNull(d.metaDescription),
  metaRobots: orNull(d.metaRobots),
});

export const LAYOUTS = ['empty', 'one_column', 'two_columns_left', 'two_columns_right', 'three_columns'];
export const ROBOTS = ['INDEX,FOLLOW', 'NOINDEX,FOLLOW', 'INDEX,NOFOLLOW', 'NOINDEX,NOFOLLOW'];

export function CmsPageForm({ pageId }: { pageId?: number }) {
  const { t } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  const form = useEntityForm<CmsPage, Draft>({
    kind: 'cms-pages',
    id: pageId,
    load: (id) => unwrap(api.GET('/api/rest/v2/cms-pages/{id}', { params: { path: { id } } })),
    toDraft: draftOf,
    empty: EMPTY,
    create: (d) => unwrap(api.POST('/api/rest/v2/cms-pages', { body: bodyOf(d) })),
    update: (id, d) => unwrap(api.PUT('/api/rest/v2/cms-pages/{id}', { params: { path: { id } }, body: bodyOf(d) })),
    remove: (id) => unwrap(api.DELETE('/api/rest/v2/cms-pages/{id}', { params: { path: { id } } })),
    deleteConfirm: t('content.pages.deleteConfirm'),
    onCreated: (p) => navigate({ to: '/cms-pages/$pageId', params: { pageId: String(p.id) }, replace: true }),
    onDeleted: () => navigate({ to: '/cms-pages' }),
  });
  if (form.loading) return <Spinner />;
  if (form.loadError) return <ErrorNote error={form.loadError} />;
  const { draft, set, error } = form;
  const op = pageId === undefined ? 'cmsPages.create' : 'cmsPages.update';
  const canSave = session.can('cms-pages', pageId === undefined ? 'create' : 'write');
  const layouts = LAYOUTS.includes(draft.pageLayout) || !draft.pageLayout ? LAYOUTS : [...LAYOUTS, draft.pageLayout];
  return (
    <>
      <PageHeader
        title={form.item ? t('content.pages.editTitle', { title: form.item.title }) : t('content.pages.new')}
        actions={
          <>
            <Link to="/cms-pages" className="button">
              {t('common.back')}
            </Link>
            {form.item && session.can('cms-pages', 'delete') && (
              <button type="button" className="danger" disabled={form.busy} onClick={form.remove}>
                {t('common.delete')}
              </button>
            )}
          </>
        }
      />
      <form className="content-form" onSubmit={form.save} aria-label={t('content.pages.form')}>
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
              name="identifier"
              operationId={op}
              error={error}
              required
              maxLength={100}
              hint={t('content.fields.identifierHint')}
              value={draft.identifier}
              onChange={(e) => set('identifier', e.target.value)}
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
        <FormSection title={t('content.sections.content')}>
          <TextField
            label={t('content.fields.contentHeading')}
            name="contentHeading"
            operationId={op}
            error={error}
            value={draft.contentHeading}
            onChange={(e) => set('contentHeading', e.target.value)}
          />
          <Editor
            label={t('content.fields.content')}
            value={draft.content}
            onChange={(v) => set('content', v)}
            error={fieldError(error, 'content')}
          />
        </FormSection>
        <FormSection title={t('content.sections.design')}>
          <SelectField
            label={t('content.fields.pageLayout')}
            name="pageLayout"
            error={error}
            value={draft.pageLayout}
            onChange={(e) => set('pageLayout', e.target.value)}
            options={[
              { value: '', label: t('content.layouts.default') },
              ...layouts.map((l) => ({ value: l, label: t(`content.layouts.${l}`, { defaultValue: l }) })),
            ]}
          />
        </FormSection>
        <FormSection title={t('content.sections.meta')}>
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
            <button type="submit" className="primary" disabled={form.busy || (pageId !== undefined && !form.dirty)}>
              {t('common.save')}
            </button>
          </div>
        )}
      </form>
    </>
  );
}
