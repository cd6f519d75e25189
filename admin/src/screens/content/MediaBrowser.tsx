/**
 * The media library: the folders and images under wysiwyg/, browsed folder by folder, with upload (into the
 * folder shown or a new folder in it) and delete, as the role allows. In a picker, each image can be chosen.
 */
import { useId, useRef, useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, unwrap, type Row } from '../../api/client';
import { collection } from '../../api/lists';
import { useSession } from '../../auth/session';
import { ErrorNote, Notice, Spinner } from '../../components/ui';
import { formatNumber } from '../../i18n';
import { mediaSrc } from './html';

export type MediaItem = Row<'/api/rest/v2/media'>;

const ROOT = 'wysiwyg';

/** A folder path relative to wysiwyg/ as the API takes it ("" is wysiwyg/ itself). */
const relative = (path: string) => (path === ROOT ? '' : path.replace(/^wysiwyg\//, ''));

/** The delete names the file by its path with its `/` separators as they are (the API refuses encoded ones). */
async function deleteFile(path: string): Promise<void> {
  const rest = relative(path).split('/').map(encodeURIComponent).join('/');
  await unwrap(api.DELETE(`/api/rest/v2/media/${rest}` as '/api/rest/v2/media/{path}', {} as never));
}

export function MediaBrowser(props: { onPick?: (item: MediaItem) => void; selected?: string }) {
  const { t } = useTranslation();
  const session = useSession();
  const qc = useQueryClient();
  const [folder, setFolder] = useState(ROOT);
  const [error, setError] = useState<unknown>();
  const [done, setDone] = useState<string>();
  const [busy, setBusy] = useState(false);
  const query = relative(folder);
  const folders = useQuery({
    queryKey: ['media-folders', query],
    queryFn: async () =>
      collection<Row<'/api/rest/v2/media-folders'>>(
        await unwrap(api.GET('/api/rest/v2/media-folders', { params: { query: { folder: query } } })),
      ).items,
  });
  const files = useQuery({
    queryKey: ['media', query],
    queryFn: async () => collection<MediaItem>(await unwrap(api.GET('/api/rest/v2/media', { params: { query: { folder: query } } }))).items,
  });
  const crumbs = folder.split('/').map((name, i, all) => ({ name, path: all.slice(0, i + 1).join('/') }));

  async function act(fn: () => Promise<string>) {
    setBusy(true);
    setError(undefined);
    setDone(undefined);
    try {
      setDone(await fn());
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  function open(path: string) {
    setFolder(path);
    setError(undefined);
    setDone(undefined);
  }

  return (
    <div className="media-browser">
      <nav aria-label={t('content.media.folders')} className="media-crumbs">
        <ol>
          {crumbs.map((c, i) => (
            <li key={c.path}>
              {i === crumbs.length - 1 ? (
                <span aria-current="location">{i === 0 ? t('content.media.root') : c.name}</span>
              ) : (
                <button type="button" className="link" onClick={() => open(c.path)}>
                  {i === 0 ? t('content.media.root') : c.name}
                </button>
              )}
            </li>
          ))}
        </ol>
      </nav>
      {session.can('media', 'create') && (
        <UploadForm
          folder={query}
          busy={busy}
          onUpload={(form, into) =>
            void act(async () => {
              const item = await unwrap(api.POST('/api/rest/v2/media', { body: form as never }));
              await qc.invalidateQueries({ queryKey: ['media'] });
              await qc.invalidateQueries({ queryKey: ['media-folders'] });
              if (into) open(item.path.slice(0, item.path.lastIndexOf('/')));
              return t('content.media.uploaded', { name: item.filename });
            })
          }
        />
      )}
      <ErrorNote error={error ?? folders.error ?? files.error} />
      {done && <Notice>{done}</Notice>}
      {folders.isPending || files.isPending ? (
        <Spinner />
      ) : (
        <>
          {!!folders.data?.length && (
            <ul className="media-folders" aria-label={t('content.media.folders')}>
              {folders.data.map((f) => (
                <li key={f.path}>
                  <button type="button" onClick={() => open(f.path)}>
                    <span aria-hidden="true">▸ </span>
                    {f.name}
                  </button>
                </li>
              ))}
            </ul>
          )}
          {files.data?.length ? (
            <ul className="media-files" aria-label={t('content.media.files')}>
              {files.data.map((f) => (
                <li key={f.path} className={props.selected === f.path ? 'selected' : undefined}>
                  <figure>
                    <img src={mediaSrc(f.path)} alt={f.filename} loading="lazy" />
                    <figcaption>
                      <span className="media-name">{f.filename}</span>
                      <small>
                        {f.dimensions ? `${f.dimensions.width} × ${f.dimensions.height} · ` : ''}
                        {t('content.media.kb', { size: formatNumber(Math.max(1, Math.round(f.size / 1024))) })}
                      </small>
                    </figcaption>
                  </figure>
                  <div className="media-actions">
                    {props.onPick && (
                      <button type="button" className="primary" onClick={() => props.onPick!(f)}>
                        {t('content.media.choose', { name: f.filename })}
                      </button>
                    )}
                    {session.can('media', 'delete') && !props.onPick && (
                      <button
                        type="button"
                        className="danger"
                        disabled={busy}
                        aria-label={t('content.media.deleteNamed', { name: f.filename })}
                        onClick={() =>
                          window.confirm(t('content.media.deleteConfirm', { name: f.filename })) &&
                          void act(async () => {
                            await deleteFile(f.path);
                            await qc.invalidateQueries({ queryKey: ['media', query] });
                            return t('content.media.deleted', { name: f.filename });
                          })
                        }
                      >
                        {t('common.delete')}
                      </button>
                    )}
                  </div>
                </li>
              ))}
            </ul>
          ) : (
            <p>{t('content.media.empty')}</p>
          )}
        </>
      )}
    </div>
  );
}

function UploadForm(props: { folder: string; busy: boolean; onUpload: (form: FormData, intoNewFolder: boolean) => void }) {
  const { t } = useTranslation();
  const fileId = useId();
  const folderId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [sub, setSub] = useState('');

  function submit(e: FormEvent) {
    e.preventDefault();
    const file = input.current?.files?.[0];
    if (!file) return;
    const form = new FormData();
    const name = sub.trim().replace(/^\/+|\/+$/g, '');
    form.set('folder', [props.folder, name].filter(Boolean).join('/'));
    form.set('file', file);
    props.onUpload(form, !!name);
    if (input.current) input.current.value = '';
    setSub('');
  }

  return (
    <form className="media-upload" onSubmit={submit} aria-label={t('content.media.upload')}>
      <div className="field">
        <label htmlFor={fileId}>{t('content.media.file')}</label>
        <input id={fileId} ref={input} type="file" accept="image/png,image/jpeg,image/gif,image/webp,image/avif" required />
      </div>
      <div className="field">
        <label htmlFor={folderId}>{t('content.media.newFolder')}</label>
        <input id={folderId} value={sub} onChange={(e) => setSub(e.target.value)} pattern="[A-Za-z0-9_\-/]*" />
      </div>
      <button type="submit" className="primary" disabled={props.busy}>
        {t('content.media.upload')}
      </button>
    </form>
  );
}
