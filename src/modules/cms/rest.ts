import { crudOperations } from '../../platform/crud-routes.js';
import type { Operation } from '../../platform/operations.js';
import * as blocks from './blocks.js';
import * as pages from './pages.js';
import { CmsBlock, CmsBlockWrite, CmsListQuery, CmsPage, CmsPageWrite } from './schemas.js';

const LIST_NOTE =
  'alphabetically by title (20 a page); public callers get the active content of the current store view with its directives rendered, back-office readers also inactive content, as stored; filters identifier, search (alias q, at least 3 characters), isActive, storeId, createdFrom, createdTo, updatedSince; sortBy, sortDir; scope=all: every store view (back office only)';

/** CMS pages and blocks over REST and GraphQL (`cmsPages`, `cmsPage`, `createCmsPage`, ... as Maho names them). */
export function cmsOperations(): Operation[] {
  return [
    ...crudOperations({
      path: '/cms-pages',
      resource: 'cms-pages',
      operation: 'cmsPages',
      shortName: 'CmsPage',
      item: CmsPage,
      write: CmsPageWrite,
      query: CmsListQuery,
      summaries: {
        list: `CMS pages, ${LIST_NOTE}`,
        get: 'One CMS page: for public callers only an active page of the current store view (else 404), directives rendered; back-office readers see any, as stored, with the back-office fields',
        create:
          'Create a CMS page (identifier and title required; active and in every store view by default); its identifier becomes its URL path',
        update: 'Update a CMS page (only the fields sent)',
        delete: 'Delete a CMS page and its URL paths',
      },
      list: pages.listPages,
      get: pages.getPage,
      create: pages.createPage,
      update: pages.updatePage,
      remove: pages.deletePage,
    }),
    ...crudOperations({
      path: '/cms-blocks',
      resource: 'cms-blocks',
      operation: 'cmsBlocks',
      shortName: 'CmsBlock',
      item: CmsBlock,
      write: CmsBlockWrite,
      query: CmsListQuery,
      summaries: {
        list: `CMS blocks, ${LIST_NOTE}`,
        get: 'One CMS block: for public callers only an active block of the current store view (else 404), directives rendered; back-office readers see any, as stored',
        create: 'Create a CMS block (identifier and title required; active and in every store view by default)',
        update: 'Update a CMS block (only the fields sent)',
        delete: 'Delete a CMS block',
      },
      list: blocks.listBlocks,
      get: blocks.getBlock,
      create: blocks.createBlock,
      update: blocks.updateBlock,
      remove: blocks.deleteBlock,
    }),
  ];
}
