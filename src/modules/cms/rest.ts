import { Type } from 'typebox';
import { access } from '../../platform/auth/access.js';
import type { RestApp } from '../../platform/module.js';
import { collectionResponse, pageOf, sendCollection } from '../../platform/pagination.js';
import * as blocks from './blocks.js';
import * as pages from './pages.js';
import { CmsBlock, CmsBlockWrite, CmsListQuery, CmsPage, CmsPageWrite, CmsParams } from './schemas.js';

const deleted = { 204: Type.Null({ description: 'Deleted' }) };
const LIST_NOTE =
  'alphabetically by title (20 a page); public callers get the active content of the current store view, back-office readers also inactive content; filters identifier, search (alias q, at least 3 characters), createdFrom, createdTo, updatedSince; scope=all: every store view (back office only)';

export function routes(app: RestApp): void {
  pages.registerCmsPageResolverCheck();
  const tags = ['cms-pages'];
  app.get(
    '/cms-pages',
    {
      schema: { operationId: 'cmsPages.list', tags, summary: `CMS pages, ${LIST_NOTE}`, querystring: CmsListQuery, response: { 200: collectionResponse(CmsPage) } },
      config: { access: access.public },
    },
    async (req, reply) => {
      const page = pageOf(req.query, { defaultSize: 20, maxSize: 100 });
      return sendCollection(req, reply, 'CmsPage', await pages.listPages(req.ctx, req.query, page), page);
    },
  );
  app.get(
    '/cms-pages/:id',
    {
      schema: {
        operationId: 'cmsPages.get',
        tags,
        summary: 'One CMS page: for public callers only an active page of the current store view (else 404); back-office readers see any, with the back-office fields',
        params: CmsParams,
        response: { 200: CmsPage },
      },
      config: { access: access.public },
    },
    async (req) => pages.getPage(req.ctx, req.params.id),
  );
  app.post(
    '/cms-pages',
    {
      schema: {
        operationId: 'cmsPages.create',
        tags,
        summary: 'Create a CMS page (identifier and title required; active and in every store view by default); its identifier becomes its URL path',
        body: CmsPageWrite,
        response: { 201: CmsPage },
      },
      config: { access: access.admin('cms-pages', 'create') },
    },
    async (req, reply) => reply.code(201).send(await pages.createPage(req.ctx, req.body)),
  );
  app.put(
    '/cms-pages/:id',
    {
      schema: { operationId: 'cmsPages.update', tags, summary: 'Update a CMS page (only the fields sent)', params: CmsParams, body: CmsPageWrite, response: { 200: CmsPage } },
      config: { access: access.admin('cms-pages', 'write') },
    },
    async (req) => pages.updatePage(req.ctx, req.params.id, req.body),
  );
  app.delete(
    '/cms-pages/:id',
    {
      schema: { operationId: 'cmsPages.delete', tags, summary: 'Delete a CMS page and its URL paths', params: CmsParams, response: deleted },
      config: { access: access.admin('cms-pages', 'delete') },
    },
    async (req, reply) => {
      await pages.deletePage(req.ctx, req.params.id);
      return reply.code(204).send(null);
    },
  );

  const btags = ['cms-blocks'];
  app.get(
    '/cms-blocks',
    {
      schema: { operationId: 'cmsBlocks.list', tags: btags, summary: `CMS blocks, ${LIST_NOTE}`, querystring: CmsListQuery, response: { 200: collectionResponse(CmsBlock) } },
      config: { access: access.public },
    },
    async (req, reply) => {
      const page = pageOf(req.query, { defaultSize: 20, maxSize: 100 });
      return sendCollection(req, reply, 'CmsBlock', await blocks.listBlocks(req.ctx, req.query, page), page);
    },
  );
  app.get(
    '/cms-blocks/:id',
    {
      schema: {
        operationId: 'cmsBlocks.get',
        tags: btags,
        summary: 'One CMS block: for public callers only an active block of the current store view (else 404); back-office readers see any',
        params: CmsParams,
        response: { 200: CmsBlock },
      },
      config: { access: access.public },
    },
    async (req) => blocks.getBlock(req.ctx, req.params.id),
  );
  app.post(
    '/cms-blocks',
    {
      schema: {
        operationId: 'cmsBlocks.create',
        tags: btags,
        summary: 'Create a CMS block (identifier and title required; active and in every store view by default)',
        body: CmsBlockWrite,
        response: { 201: CmsBlock },
      },
      config: { access: access.admin('cms-blocks', 'create') },
    },
    async (req, reply) => reply.code(201).send(await blocks.createBlock(req.ctx, req.body)),
  );
  app.put(
    '/cms-blocks/:id',
    {
      schema: { operationId: 'cmsBlocks.update', tags: btags, summary: 'Update a CMS block (only the fields sent)', params: CmsParams, body: CmsBlockWrite, response: { 200: CmsBlock } },
      config: { access: access.admin('cms-blocks', 'write') },
    },
    async (req) => blocks.updateBlock(req.ctx, req.params.id, req.body),
  );
  app.delete(
    '/cms-blocks/:id',
    {
      schema: { operationId: 'cmsBlocks.delete', tags: btags, summary: 'Delete a CMS block', params: CmsParams, response: deleted },
      config: { access: access.admin('cms-blocks', 'delete') },
    },
    async (req, reply) => {
      await blocks.deleteBlock(req.ctx, req.params.id);
      return reply.code(204).send(null);
    },
  );
}
