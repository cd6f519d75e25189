/** A CMS block: title, identifier (what `{{block id="…"}}` names), content in the rich-text editor, store views, status. */
import { Link, useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { api, unwrap, type Answer } from '../../api/client';
import { useSession } from '../../auth/session';
import { CheckboxField, ErrorNote, Notice, PageHeader, Spinner, TextField, fieldError } from '../../components/ui';
import { Editor } from './Editor';
import { FormSection, StoresField, useEntityForm } from './shared';

type CmsBlock = Answer<'/api/rest/v2/cms-blocks/{id}', 'get'>;

interface Draft {
  title: string;
  identifier: string;
  content: string;
  isActive: boolean;
  stores: number[];
}

const EMPTY: Draft = { title: '', identifier: '', content: '', isActive: true, stores: [0] };
const draftOf = (b: CmsBlock): Draft => ({
  title: b.title,
  identifier: b.identifier,
  content: b.content,
  isActive: b.isActive,
  stores: b.stores,
});
const bodyOf = (d: Draft) => ({ ...d, identifier: d.identifier.trim() });

export function CmsBlockForm({ blockId }: { blockId?: number }) {
  const { t } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  const form = useEntityForm<CmsBlock, Draft>({
    kind: 'cms-blocks',
    id: blockId,
    load: (id) => unwrap(api.GET('/api/rest/v2/cms-blocks/{id}', { params: { path: { id } } })),
    toDraft: draftOf,
    empty: EMPTY,
    create: (d) => unwrap(api.POST('/api/rest/v2/cms-blocks', { body: bodyOf(d) })),
    update: (id, d) => unwrap(api.PUT('/api/rest/v2/cms-blocks/{id}', { params: { path: { id } }, body: bodyOf(d) })),
    remove: (id) => unwrap(api.DELETE('/api/rest/v2/cms-blocks/{id}', { params: { path: { id } } })),
    deleteConfirm: t('content.blocks.deleteConfirm'),
    onCreated: (b) => navigate({ to: '/cms-blocks/$blockId', params: { blockId: String(b.id) }, replace: true }),
    onDeleted: () => navigate({ to: '/cms-blocks' }),
  });
  if (form.loading) return <Spinner />;
  if (form.loadError) return <ErrorNote error={form.loadError} />;
  const { draft, set, error } = form;
  const op = blockId === undefined ? 'cmsBlocks.create' : 'cmsBlocks.update';
  const canSave = session.can('cms-blocks', blockId === undefined ? 'create' : 'write');
  return (
    <>
      <PageHeader
        title={form.item ? t('content.blocks.editTitle', { title: form.item.title }) : t('content.blocks.new')}
        actions={
          <>
            <Link to="/cms-blocks" className="button">
              {t('common.back')}
            </Link>
            {form.item && session.can('cms-blocks', 'delete') && (
              <button type="button" className="danger" disabled={form.busy} onClick={form.remove}>
                {t('common.delete')}
              </button>
            )}
          </>
        }
      />
      <form className="content-form" onSubmit={form.save} aria-label={t('content.blocks.form')}>
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
              label={t('content.fields.identifier')}
              name="identifier"
              operationId={op}
              error={error}
              required
              maxLength={100}
              hint={t('content.fields.blockIdentifierHint')}
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
          <Editor
            label={t('content.fields.content')}
            value={draft.content}
            onChange={(v) => set('content', v)}
            error={fieldError(error, 'content')}
          />
        </FormSection>
        {canSave && (
          <div className="form-actions">
            <button type="submit" className="primary" disabled={form.busy || (blockId !== undefined && !form.dirty)}>
              {t('common.save')}
            </button>
          </div>
        )}
      </form>
    </>
  );
}
