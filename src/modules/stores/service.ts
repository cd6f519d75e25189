/**
 * Store views, websites and currencies as the storefront sees them, and the writes operators make to them
 * (CLI, tests, demo seed). Reads come from the in-memory registry.
 */
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Ctx } from '../../platform/context.js';
import type { Db } from '../../platform/db.js';
import { badRequest, notFound } from '../../platform/errors.js';
import type { ConfigScope } from '../../platform/settings.js';
import { allowedCountryIds } from '../directory/service.js';
import type { StoreRegistry, StoreView } from './registry.js';
import type { CurrencyDto, StoreConfigDto, StoreDto } from './schemas.js';
import { configValues, currencyRates, storeGroups, stores, websites } from './tables.js';
import './defaults.js';

/**
 * The ids of the store views of a website, as a subquery for another module's statement (store views made in
 * the caller's open transaction included, which the in-memory registry does not know yet).
 */
export function storeIdsOfWebsiteSql(websiteId: number | SQL): SQL {
  return sql`(SELECT ${stores.id} FROM ${stores} WHERE ${stores.websiteId} = ${websiteId})`;
}

function reg(ctx: Ctx): StoreRegistry {
  return ctx.app.settings;
}

function mediaUrl(r: StoreRegistry, storeId: number): string {
  return r.get('web/unsecure/base_media_url', storeId) || `${r.baseUrl(storeId)}media/`;
}

export function storeConfig(ctx: Ctx, storeCode?: string): StoreConfigDto {
  const r = reg(ctx);
  let store: StoreView | undefined;
  if (storeCode === undefined) store = r.store(ctx.store.storeId);
  else {
    store = r.storeByCode(storeCode);
    if (!store || !store.isActive) throw notFound(`Store not found: ${storeCode}`);
  }
  if (!store) throw notFound('Store not found');
  const id = store.id;
  const opt = (path: string) => r.get(path, id) || undefined;
  const logo = opt('design/header/logo_src');
  return {
    id: store.code,
    storeCode: store.code,
    storeName: r.get('general/store_information/name', id) || store.name,
    baseCurrencyCode: r.baseCurrency(id),
    defaultDisplayCurrencyCode: r.displayCurrency(id),
    locale: r.get('general/locale/code', id) ?? 'en_US',
    timezone: r.get('general/locale/timezone', id) ?? 'UTC',
    weightUnit: r.get('general/locale/weight_unit', id) ?? 'lbs',
    baseUrl: r.baseUrl(id),
    baseMediaUrl: mediaUrl(r, id),
    allowedCountries: allowedCountryIds(r, id),
    isGuestCheckoutAllowed: r.getBool('checkout/options/guest_checkout', id),
    newsletterEnabled: r.getBool('newsletter/general/active', id),
    wishlistEnabled: r.getBool('wishlist/general/active', id),
    reviewsEnabled: r.getBool('catalog/review/active', id),
    logoUrl: logo ? (/^https?:\/\//.test(logo) ? logo : `${mediaUrl(r, id)}logo/${logo}`) : undefined,
    logoAlt: opt('design/header/logo_alt'),
    defaultTitle: opt('design/head/default_title'),
    defaultDescription: opt('design/head/default_description'),
    cmsHomePage: r.get('web/default/cms_home_page', id) ?? 'home',
  };
}

function storeDto(r: StoreRegistry, s: StoreView): StoreDto {
  const website = r.website(s.websiteId);
  const group = r.group(s.groupId);
  const base = r.baseUrl(s.id);
  return {
    id: s.id,
    code: s.code,
    name: s.name,
    websiteId: s.websiteId,
    websiteCode: website?.code ?? '',
    websiteName: website?.name ?? '',
    groupId: s.groupId,
    groupName: group?.name ?? '',
    rootCategoryId: group?.rootCategoryId ?? 0,
    isActive: s.isActive,
    isDefault: r.defaultStore.id === s.id,
    baseUrl: base,
    baseLinkUrl: base,
    baseMediaUrl: mediaUrl(r, s.id),
    locale: r.get('general/locale/code', s.id) ?? 'en_US',
    currency: { base: r.baseCurrency(s.id), default: r.displayCurrency(s.id) },
  };
}

/** Active store views, with their website and group. */
export function listStores(ctx: Ctx): StoreDto[] {
  const r = reg(ctx);
  return r
    .allStores()
    .filter((s) => s.isActive)
    .map((s) => storeDto(r, s));
}

export function switchStore(ctx: Ctx, storeCode: string): StoreDto & { success: boolean } {
  const r = reg(ctx);
  const s = r.storeByCode(storeCode);
  if (!s || !s.isActive) throw notFound(`Store not found: ${storeCode}`);
  return { ...storeDto(r, s), success: true };
}

const symbolCache = new Map<string, string>();
export function currencySymbol(code: string): string {
  let s = symbolCache.get(code);
  if (s === undefined) {
    try {
      const parts = new Intl.NumberFormat('en', { style: 'currency', currency: code, currencyDisplay: 'narrowSymbol' }).formatToParts(0);
      s = parts.find((p) => p.type === 'currency')?.value ?? code;
    } catch {
      s = code;
    }
    symbolCache.set(code, s);
  }
  return s;
}

/** Allowed currencies of the current store that have a rate from the base currency. */
export function listCurrencies(ctx: Ctx): CurrencyDto[] {
  const r = reg(ctx);
  const id = ctx.store.storeId;
  const base = r.baseCurrency(id);
  const display = r.displayCurrency(id);
  const out: CurrencyDto[] = [];
  for (const code of r.allowedCurrencies(id)) {
    const rate = r.rate(base, code);
    if (!rate) continue;
    out.push({ code, symbol: currencySymbol(code), exchangeRate: rate.toNumber(), isBase: code === base, isDefault: code === display });
  }
  return out.sort((a, b) => a.code.localeCompare(b.code));
}

// ---- operator writes (CLI, install, demo, tests) ----

export async function setConfig(
  db: Db,
  registry: StoreRegistry | undefined,
  path: string,
  value: string | null,
  scope: ConfigScope = 'default',
  scopeId = 0,
): Promise<void> {
  if (!/^[a-z0-9_]+\/[a-z0-9_]+\/[a-z0-9_]+$/.test(path)) throw badRequest(`Invalid config path: ${path}`);
  if (scope === 'default' && scopeId !== 0) throw badRequest('The default scope has scope id 0');
  if (scope === 'websites' && registry && !registry.website(scopeId)) throw badRequest(`Unknown website: ${scopeId}`);
  if (scope === 'stores' && registry && !registry.store(scopeId)) throw badRequest(`Unknown store: ${scopeId}`);
  await db
    .insert(configValues)
    .values({ scope, scopeId, path, value })
    .onConflictDoUpdate({
      target: [configValues.scope, configValues.scopeId, configValues.path],
      set: { value, updatedAt: new Date() },
    });
  await registry?.reload();
}

export async function deleteConfig(db: Db, registry: StoreRegistry | undefined, path: string, scope: ConfigScope = 'default', scopeId = 0) {
  await db.delete(configValues).where(and(eq(configValues.scope, scope), eq(configValues.scopeId, scopeId), eq(configValues.path, path)));
  await registry?.reload();
}

export async function setCurrencyRate(db: Db, registry: StoreRegistry | undefined, base: string, target: string, rate: string) {
  if (!/^[A-Z]{3}$/.test(base) || !/^[A-Z]{3}$/.test(target)) throw badRequest('Currency codes are three capital letters');
  if (!/^\d+(\.\d+)?$/.test(rate) || Number(rate) <= 0) throw badRequest('A rate is a positive decimal number');
  await db
    .insert(currencyRates)
    .values({ base, target, rate })
    .onConflictDoUpdate({ target: [currencyRates.base, currencyRates.target], set: { rate } });
  await registry?.reload();
}

export interface NewStoreView {
  code: string;
  name: string;
  websiteId?: number;
  groupId?: number;
  sortOrder?: number;
  isActive?: boolean;
}

/** Adds a store view to an existing store group (the website's default group unless named). */
export async function createStoreView(db: Db, registry: StoreRegistry | undefined, input: NewStoreView): Promise<number> {
  if (!/^[a-z][a-z0-9_]{0,31}$/.test(input.code)) throw badRequest('A store code is lower-case letters, digits and _');
  const websiteId = input.websiteId ?? registry?.defaultStore.websiteId ?? 1;
  const [website] = await db.select().from(websites).where(eq(websites.id, websiteId));
  if (!website) throw badRequest(`Unknown website: ${websiteId}`);
  const groupId = input.groupId ?? website.defaultGroupId;
  if (!groupId) throw badRequest('The website has no store group');
  const [row] = await db
    .insert(stores)
    .values({ code: input.code, name: input.name, websiteId, groupId, sortOrder: input.sortOrder ?? 0, isActive: input.isActive ?? true })
    .returning({ id: stores.id });
  await registry?.reload();
  return row.id;
}

/** Adds a website with one store group and one store view. */
export async function createWebsite(
  db: Db,
  registry: StoreRegistry | undefined,
  input: { code: string; name: string; storeCode: string; storeName: string },
): Promise<{ websiteId: number; groupId: number; storeId: number }> {
  return db
    .transaction(async (tx) => {
      const [w] = await tx.insert(websites).values({ code: input.code, name: input.name }).returning({ id: websites.id });
      const [g] = await tx
        .insert(storeGroups)
        .values({ websiteId: w.id, name: `${input.name} Store` })
        .returning({ id: storeGroups.id });
      const [s] = await tx
        .insert(stores)
        .values({ code: input.storeCode, name: input.storeName, websiteId: w.id, groupId: g.id })
        .returning({ id: stores.id });
      await tx.update(websites).set({ defaultGroupId: g.id }).where(eq(websites.id, w.id));
      await tx.update(storeGroups).set({ defaultStoreId: s.id }).where(eq(storeGroups.id, g.id));
      return { websiteId: w.id, groupId: g.id, storeId: s.id };
    })
    .finally(() => registry?.reload());
}

/** Install data: the Main Website, its store group and the default store view; the base currency rate. */
export async function install(db: Db): Promise<void> {
  await db.insert(websites).values({ id: 1, code: 'base', name: 'Main Website', sortOrder: 0, isDefault: true, defaultGroupId: 1 });
  await db.insert(storeGroups).values({ id: 1, websiteId: 1, name: 'Main Website Store', rootCategoryId: 2, defaultStoreId: 1 });
  await db.insert(stores).values({ id: 1, code: 'default', name: 'Default Store View', websiteId: 1, groupId: 1, sortOrder: 0 });
  await db.insert(currencyRates).values({ base: 'USD', target: 'USD', rate: '1' });
  for (const t of ['websites', 'store_groups', 'stores']) {
    await db.execute(sql.raw(`SELECT setval(pg_get_serial_sequence('${t}', 'id'), (SELECT max(id) FROM ${t}))`));
  }
}

/** Demo data: a second store view in German with euro prices. */
export async function seedDemo(ctx: Ctx): Promise<void> {
  const r = reg(ctx);
  const storeId = await createStoreView(ctx.db, r, { code: 'german', name: 'German Store View', sortOrder: 1 });
  await setConfig(ctx.db, r, 'general/store_information/name', 'Demo Store');
  await setConfig(ctx.db, r, 'currency/options/allow', 'USD,EUR');
  await setCurrencyRate(ctx.db, r, 'USD', 'EUR', '0.92');
  await setConfig(ctx.db, r, 'general/locale/code', 'de_DE', 'stores', storeId);
  await setConfig(ctx.db, r, 'general/locale/timezone', 'Europe/Berlin', 'stores', storeId);
  await setConfig(ctx.db, r, 'currency/options/default', 'EUR', 'stores', storeId);
  await setConfig(ctx.db, r, 'general/locale/weight_unit', 'kgs', 'stores', storeId);
}
