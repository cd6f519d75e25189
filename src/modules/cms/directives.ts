/**
 * Template directives in CMS content, rendered for the storefront as Maho renders them: `{{media url="…"}}`,
 * `{{store url="…"}}` / `{{store direct_url="…"}}`, `{{block id="…"}}` and `{{config path="…"}}` for the
 * config paths a template may show. A directive this renderer does not know is left as written, as the legacy
 * filter leaves one it has no handler for. Blocks render their own directives, to a bounded depth and never
 * themselves.
 */
import type { Ctx } from '../../platform/context.js';
import { baseMediaUrl } from '../catalog/product-extras/media-service.js';
import { blockContent } from './block-content.js';

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

async function block(ctx: Ctx, id: string, seen: ReadonlySet<string>): Promise<string> {
  const key = id.trim().toLowerCase();
  if (!key || seen.has(key) || seen.size >= MAX_DEPTH) return '';
  const content = await blockContent(ctx, key);
  return content ? render(ctx, content, new Set([...seen, key])) : '';
}

async function render(ctx: Ctx, content: string, seen: ReadonlySet<string>): Promise<string> {
  if (!content.includes('{{')) return content;
  const parts: (string | Promise<string>)[] = [];
  let last = 0;
  for (const m of content.matchAll(DIRECTIVE)) {
    parts.push(content.slice(last, m.index));
    last = m.index + m[0].length;
    parts.push(directive(ctx, m[1].toLowerCase(), params(m[2]), seen).then((r) => r ?? m[0]));
  }
  parts.push(content.slice(last));
  return (await Promise.all(parts)).join('');
}

/** The text a directive renders to, or undefined to leave it as written. */
async function directive(ctx: Ctx, name: string, p: Map<string, string>, seen: ReadonlySet<string>): Promise<string | undefined> {
  switch (name) {
    case 'media': {
      const url = p.get('url');
      return url === undefined ? undefined : baseMediaUrl(ctx) + relative(url);
    }
    case 'store':
      return storeUrl(ctx, p);
    case 'block': {
      const id = p.get('id') ?? p.get('block_id');
      return id === undefined ? undefined : block(ctx, id, seen);
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
 * CMS content as the storefront shows it: directives rendered for the caller's store view. A block passes its
 * own identifier and id as `self`, so that it does not include itself.
 */
export function renderContent(ctx: Ctx, content: string, self: string[] = []): Promise<string> {
  return render(ctx, content, new Set(self.map((k) => k.trim().toLowerCase())));
}
