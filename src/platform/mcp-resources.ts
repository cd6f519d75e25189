/**
 * What the MCP endpoint offers besides tools: the instructions `initialize` answers, and two resources an agent
 * reads for context, the store view's configuration and its category tree. Both are read through the declared
 * operations they come from (found by id), with those operations' access rules.
 */
import type { Resource } from '@modelcontextprotocol/sdk/types.js';
import { authorize } from './auth/access.js';
import type { Ctx } from './context.js';
import { restJson } from './mcp-tools.js';
import type { Operation, OpInput } from './operations.js';
import type { CollectionResult } from './pagination.js';

const STORE_CONFIG = 'stores.config';
const CATEGORY_TREE = 'categories.tree';
/** deeper than any real catalog; the tree stops here whatever the data says */
const MAX_DEPTH = 12;

export interface McpResource {
  resource: Resource;
  /** the operation read: its access rule decides who sees the resource */
  op: Operation;
  read(ctx: Ctx): Promise<string>;
}

type Js = Record<string, any>;

function runOp(o: Operation, ctx: Ctx, input: Partial<OpInput> = {}): Promise<unknown> {
  authorize(ctx.actor, o.access);
  const size = o.page?.maxSize ?? 100;
  return o.run(ctx, { params: {}, query: {}, body: undefined, headers: {}, page: { page: 1, size, offset: 0 }, ...input });
}

/**
 * The tree, nested from the flat list the catalog answers in one read, parents before children (kept in the
 * process's read cache, so a second read of an unchanged catalog sends no statement). A category whose parent
 * is not in the list (below an inactive one), or deeper than MAX_DEPTH under the root, is left out.
 */
async function tree(source: Operation, ctx: Ctx): Promise<Js[]> {
  const result = (await runOp(source, ctx)) as CollectionResult<Js> | Js[];
  const rows = Array.isArray(result) ? result : result.items;
  const roots: Js[] = [];
  const placed = new Map<number, { node: Js; depth: number }>();
  const top = rows.length ? Math.min(...rows.map((c) => c.level as number)) : 0;
  for (const c of rows) {
    const node = {
      id: c.id,
      name: c.name,
      urlKey: c.urlKey,
      urlPath: c.urlPath,
      level: c.level,
      includeInMenu: c.includeInMenu,
      productCount: c.productCount,
      children: [] as Js[],
    };
    if (c.level === top) {
      roots.push(node);
      placed.set(c.id, { node, depth: 1 });
      continue;
    }
    const parent = placed.get(c.parentId);
    if (!parent || parent.depth >= MAX_DEPTH) continue;
    parent.node.children.push(node);
    placed.set(c.id, { node, depth: parent.depth + 1 });
  }
  return roots;
}

export function mcpResources(ops: readonly Operation[], apiPrefix: string): McpResource[] {
  const out: McpResource[] = [];
  const config = ops.find((o) => o.id === STORE_CONFIG);
  if (config) {
    out.push({
      resource: {
        uri: 'commerce://store-config',
        name: 'store-config',
        title: 'Store configuration',
        description: `The store view's name, currencies, locale, countries and features, as ${config.method} ${apiPrefix}${config.path} answers them`,
        mimeType: 'application/json',
      },
      op: config,
      read: async (ctx) => restJson(config, await runOp(config, ctx)),
    });
  }
  const list = ops.find((o) => o.id === CATEGORY_TREE);
  if (list) {
    out.push({
      resource: {
        uri: 'commerce://category-tree',
        name: 'category-tree',
        title: 'Category tree',
        description: "The store view's active categories, nested under its root category (id, name, url key and path, product count)",
        mimeType: 'application/json',
      },
      op: list,
      read: async (ctx) => JSON.stringify({ store: ctx.store.storeCode, categories: await tree(list, ctx) }),
    });
  }
  return out;
}

/** What `initialize` tells an agent: what the store is, how ids, paging, access and retries work. */
export async function instructionsFor(ctx: Ctx, ops: readonly Operation[]): Promise<string> {
  const configOp = ops.find((o) => o.id === STORE_CONFIG);
  const store = (configOp ? await runOp(configOp, ctx).catch(() => undefined) : undefined) as Js | undefined;
  const name = store?.storeName ? `"${store.storeName}" (store view ${store.storeCode})` : `store view ${ctx.store.storeCode}`;
  return [
    `Commerce API of the online store ${name}: catalog, carts and checkout, customers, orders, invoices, shipments, content and back office, as tools that mirror the REST API one to one.`,
    store?.baseCurrencyCode
      ? `Read the "currency" field of a response that carries one; elsewhere amounts are in ${store.baseCurrencyCode}, the base currency of this store view's website (other websites may differ), or in the display currency asked for with X-Currency-Code.`
      : undefined,
    'Ids are the numeric ids of the records, not SKUs or order numbers: find a record with a list tool and its filters (sku, incrementId, email) before writing to it. A guest cart is named by its maskedId.',
    'List tools answer one page of a JSON-LD Collection (totalItems, member, view): pass page (from 1) and itemsPerPage, and follow view.next rather than taking the first page for the whole list.',
    'The tools listed are those your token may call (send a customer or API user bearer token in the Authorization header for more); a call is refused exactly when the same REST request would be, with its error code and HTTP status in the tool error.',
    'Write tools take an idempotencyKey: a retry with the same key answers the first success instead of doing the work twice.',
    'Pick another store view with ?store=<code> on the endpoint URL or the X-Store-Code header, never by name.',
  ]
    .filter(Boolean)
    .join('\n');
}
