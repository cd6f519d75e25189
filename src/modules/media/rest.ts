import type { Readable } from 'node:stream';
import { Type } from 'typebox';
import { access } from '../../platform/auth/access.js';
import { badRequest } from '../../platform/errors.js';
import type { RestApp } from '../../platform/module.js';
import { op, type Operation } from '../../platform/operations.js';
import { boundaryOf, parseMultipart, readLimited } from './multipart.js';
import * as media from './service.js';

const tags = ['media'];

const Dimensions = Type.Object({ width: Type.Integer(), height: Type.Integer() });
export const MediaItem = Type.Object({
  url: Type.String(),
  directive: Type.String({ description: '{{media url="wysiwyg/…"}}' }),
  size: Type.Integer({ description: 'bytes' }),
  dimensions: Type.Optional(Dimensions),
  filename: Type.String(),
  path: Type.String({ description: 'relative to the media folder' }),
});
export const MediaFolder = Type.Object({
  name: Type.String(),
  path: Type.String({ description: 'relative to the media folder (wysiwyg/…); pass it as `folder` to list what is in it' }),
});
const ListQuery = Type.Object({
  folder: Type.Optional(
    Type.String({ description: 'a folder relative to wysiwyg/ (banners and wysiwyg/banners are the same); default wysiwyg/ itself' }),
  ),
  path: Type.Optional(Type.String({ description: 'alias of folder' })),
});
// the rest of the path, slashes included (the document names it `path`): sent as it is, since percent-encoded
// separators are refused
const DeleteParams = Type.Object({
  '*': Type.String({
    description: 'the file path relative to wysiwyg/, its `/` separators not percent-encoded (encoded ones are refused)',
  }),
});
/** The multipart form of an upload, for the OpenAPI document only: the handler parses the stream itself. */
const UploadForm = Type.Object({
  file: Type.String({ format: 'binary', description: 'the image (required)' }),
  folder: Type.Optional(
    Type.String({ description: 'a folder relative to wysiwyg/ (banners and wysiwyg/banners are the same); default wysiwyg/ itself' }),
  ),
  filename: Type.Optional(Type.String({ description: 'the stored name without extension (default: the uploaded name)' })),
});

/** Percent-encoded separators, dots, backslashes and NUL in the raw request path. */
const ENCODED_TRICK = /%(2f|5c|2e|00|25)/i;
/** Multipart overhead allowed over the file size limit while reading the body. */
const FORM_OVERHEAD = 64 * 1024;

export const operations: Operation[] = [
  op({
    id: 'media.list',
    method: 'GET',
    path: '/media',
    tags,
    summary: 'Image files in a folder under wysiwyg/ (folder, alias path, relative to wysiwyg/; default wysiwyg/ itself), by name',
    access: access.admin('media', 'read'),
    shortName: 'Media',
    query: ListQuery,
    kind: 'collection',
    response: MediaItem,
    graphql: { name: 'mediaFiles' },
    run: async (ctx, { query }) => {
      const items = await media.listMedia(ctx, query.folder ?? query.path);
      return { items, total: items.length };
    },
  }),
  op({
    id: 'media.folders',
    method: 'GET',
    path: '/media-folders',
    tags,
    summary: 'The folders in a folder under wysiwyg/ (folder, alias path, relative to wysiwyg/; default wysiwyg/ itself), by name',
    access: access.admin('media', 'read'),
    shortName: 'MediaFolder',
    query: ListQuery,
    kind: 'collection',
    response: MediaFolder,
    graphql: { name: 'mediaFolders' },
    run: async (ctx, { query }) => {
      const items = await media.listMediaFolders(ctx, query.folder ?? query.path);
      return { items, total: items.length };
    },
  }),
];

/**
 * The routes that are not declarations: the delete inspects the raw request URL (percent-encoded separators and
 * dots are refused before decoding), and the upload reads a multipart stream; neither has a meaning outside HTTP.
 */
export function routes(app: RestApp): void {
  app.delete(
    '/media/*',
    {
      schema: {
        operationId: 'media.delete',
        tags,
        summary:
          'Delete a file under wysiwyg/ (path relative to wysiwyg/; the path an answer gives, starting with wysiwyg/, means the same)',
        params: DeleteParams,
        response: { 204: Type.Null({ description: 'Deleted' }) },
      },
      config: { access: access.admin('media', 'delete') },
    },
    async (req, reply) => {
      const rawPath = req.url.split('?')[0];
      if (ENCODED_TRICK.test(rawPath)) throw badRequest('Invalid media path: encoded characters', { reason: 'INVALID_PATH' });
      await media.deleteMedia(req.ctx, req.params['*']);
      return reply.code(204).send(null);
    },
  );
  // multipart bodies are read by the handler itself, within the configured size limit, in this context only
  app.register(async (sub) => {
    sub.addContentTypeParser('multipart/form-data', (_req, payload, done) => done(null, payload));
    sub.post(
      '/media',
      {
        schema: {
          operationId: 'media.upload',
          tags,
          summary: 'Upload an image (multipart/form-data: file, folder, filename without extension); converted to the configured format',
          consumes: ['multipart/form-data'],
          body: UploadForm,
          response: { 201: MediaItem },
        },
        // the body reaches the handler as a stream; the form schema above documents it and validates nothing
        validatorCompiler: () => () => true,
        config: { access: access.admin('media', 'create') },
      },
      async (req, reply) => {
        const type = String(req.headers['content-type'] ?? '');
        if (!/^multipart\/form-data/i.test(type)) {
          throw badRequest('The body must be multipart/form-data with a file', {
            reason: 'VALIDATION_FAILED',
            details: { field: 'file', constraint: 'required' },
          });
        }
        const settings = media.mediaSettings(req.ctx);
        const boundary = boundaryOf(type);
        const body = await readLimited(req.body as unknown as Readable, settings.maxBytes + FORM_OVERHEAD, () =>
          media.tooLarge(settings.maxBytes),
        );
        const parts = parseMultipart(body, boundary);
        const field = (name: string) => {
          const p = parts.find((x) => x.name === name && x.filename === undefined);
          return p ? p.data.toString('utf8') : undefined;
        };
        const file = parts.find((p) => p.name === 'file');
        const item = await media.uploadMedia(
          req.ctx,
          { file: file && { data: file.data, filename: file.filename }, folder: field('folder'), filename: field('filename') },
          settings,
        );
        return reply.code(201).send(item);
      },
    );
  });
}
