/**
 * Template directives in CMS content, rendered for the storefront as Maho renders them: `{{media url="…"}}`,
 * `{{store url="…"}}` / `{{store direct_url="…"}}`, `{{block id="…"}}` and `{{config path="…"}}` for the
 * config paths a template may show. A directive this renderer does not know is left as written, as the legacy
 * filter leaves one it has no handler for. Blocks render their own directives, to a bounded depth and never
 * themselves.
 */
import type { Ctx } from '../../platform/context.js';
import { baseMediaUrl } from '../catalog/product-extras/media-service.js';
import { blockContents } from './block-content.js';

const DIRECTIVE = /\{\{([a-z]{1,10})((?:[^}]|\}(?!\}))*)\}\}/gi;
const PARAM = /([a-z_]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|(\S+))/gi;
/** nested blocks deeper than this render as nothing */
const MAX_DEPTH = 5;

/** The config a template may show (the legacy default allow list): store identity and contact addresses. */
const CONFIG_ALLOWED = [
  /^web\/(un)?secure\/base_url$/,
  /^general\/store_information\/[a-z_]+$/,
  /^trans_email\/ident_[a-z0-9]+\/(name|email)$/,
  /^contacts\/email\/recipient_email$/,
];

function params(raw: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of raw.matchAll(PARAM)) out.set(m[1].toLowerCase(), m[2] ?? m[3] ?? m[4]);
  return out;
}

/** A path inside the shop: no scheme, no host, no climbing out (empty, `.` and `..` segments are dropped). */
function relative(path: string): string {
  const segments = path.replace(/^[a-z][a-z0-9+.-]*:/i, '').split(/[/\\]/);
  const kept = segments.filter((s) => s !== '' && s !== '.' && s !== '..').join('/');
  return kept && /[/\\]$/.test(path) ? `${kept}/` : kept;
}

function storeUrl(ctx: Ctx, p: Map<string, string>): string | undefined {
  const base = ctx.app.settings.baseUrl(ctx.store.storeId);
  const direct = p.get('direct_url');
  if (direct !== undefined) return base + relative(direct);
  const url = p.get('url');
  if (url === undefined) return undefined;
  const route = relative(url).replace(/\/+$/, '');
  return route === '' || route === '*' ? base : `${base}${route}/`;
}

/** The blocks a rendering may include, read before it starts: identifier or id (lower-cased) → stored content. */
type Blocks = ReadonlyMap<string, string>;

function block(ctx: Ctx, blocks: Blocks, id: string, seen: ReadonlySet<string>): string {
  const key = id.trim().toLowerCase();
  if (!key || seen.has(key) || seen.size >= MAX_DEPTH) return '';
  const content = blocks.get(key);
  return content ? render(ctx, blocks, content, new Set([...seen, key])) : '';
}

/** The identifiers and ids the `{{block}}` directives of `content` name, lower-cased. */
function blockKeys(content: string): string[] {
  if (!content.includes('{{')) return [];
  const keys: string[] = [];
  for (const m of content.matchAll(DIRECTIVE)) {
    if (m[1].toLowerCase() !== 'block') continue;
    const p = params(m[2]);
    const id = (p.get('id') ?? p.get('block_id'))?.trim().toLowerCase();
    if (id) keys.push(id);
  }
  return keys;
}

/**
 * Every block the contents may include, down to the nesting limit: one statement per level of nesting, whatever
 * the number of contents and directives.
 */
async function blocksFor(ctx: Ctx, contents: readonly string[]): Promise<Blocks> {
  const blocks = new Map<string, string>();
  const tried = new Set<string>();
  let wanted = contents.flatMap(blockKeys);
  for (let level = 0; level < MAX_DEPTH; level++) {
    const next = [...new Set(wanted)].filter((k) => !tried.has(k));
    if (!next.length) break;
    for (const k of next) tried.add(k);
    const found = await blockContents(ctx, next);
    for (const [k, v] of found) blocks.set(k, v);
    wanted = [...found.values()].flatMap(blockKeys);
  }
  return blocks;
}

function render(ctx: Ctx, blocks: Blocks, content: string, seen: ReadonlySet<string>): string {
  if (!content.includes('{{')) return content;
  let out = '';
  let last = 0;
  for (const m of content.matchAll(DIRECTIVE)) {
    out += content.slice(last, m.index);
    last = m.index + m[0].length;
    out += directive(ctx, blocks, m[1].toLowerCase(), params(m[2]), seen) ?? m[0];
  }
  return out + content.slice(last);
}

/** The text a directive renders to, or undefined to leave it as written. */
function directive(ctx: Ctx, blocks: Blocks, name: string, p: Map<string, string>, seen: ReadonlySet<string>): string | undefined {
  switch (name) {
    case 'media': {
      const url = p.get('url');
      return url === undefined ? undefined : baseMediaUrl(ctx) + relative(url);
    }
    case 'store':
      return storeUrl(ctx, p);
    case 'block': {
      const id = p.get('id') ?? p.get('block_id');
      return id === undefined ? undefined : block(ctx, blocks, id, seen);
    }
    case 'config': {
      const path = p.get('path') ?? '';
      if (!CONFIG_ALLOWED.some((re) => re.test(path))) return '';
      // the base URL falls back to the service's public address, as everywhere else
      if (path.endsWith('/base_url')) return ctx.app.settings.get(path, ctx.store.storeId) || ctx.app.settings.baseUrl(ctx.store.storeId);
      return ctx.app.settings.get(path, ctx.store.storeId) ?? '';
    }
    default:
      return undefined;
  }
}

/**
 * CMS contents as the storefront shows them: directives rendered for the caller's store view, the blocks they
 * include read together for all of them (a list renders in as many statements as one item). A block passes its
 * own identifier and id as `self`, so that it does not include itself.
 */
export async function renderContents(ctx: Ctx, items: readonly { content: string; self?: string[] }[]): Promise<string[]> {
  const blocks = await blocksFor(
    ctx,
    items.map((i) => i.content),
  );
  return items.map((i) => render(ctx, blocks, i.content, new Set((i.self ?? []).map((k) => k.trim().toLowerCase()))));
}
