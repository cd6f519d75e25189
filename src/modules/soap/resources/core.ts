/** `core_store`, `core_magento`, `directory_country`, `directory_region` and `customer_group` of the Magento 1 API. */
import type { Ctx } from '../../../platform/context.js';
import { listCustomerGroups } from '../../customers/groups-service.js';
import { COUNTRIES } from '../../directory/data.js';
import { getCountry } from '../../directory/service.js';
import type { StoreView } from '../../stores/registry.js';
import { defineResource, resourceFault, type LegacyValue } from '../resources.js';

const record = (o: Record<string, LegacyValue>) => new Map(Object.entries(o));

function storeRecord(s: StoreView) {
  return record({
    store_id: s.id,
    code: s.code,
    website_id: s.websiteId,
    group_id: s.groupId,
    name: s.name,
    sort_order: s.sortOrder,
    is_active: s.isActive ? 1 : 0,
  });
}

/** A store view by id or code (Magento's `getStore` takes both); the admin store view 0 is not one here. */
function findStore(ctx: Ctx, ref: LegacyValue | undefined): StoreView | undefined {
  const r = ctx.app.settings;
  if (typeof ref === 'number') return r.store(ref);
  if (typeof ref !== 'string' || !ref.trim()) return undefined;
  const s = ref.trim();
  return /^\d+$/.test(s) ? r.store(Number(s)) : r.storeByCode(s);
}

export const coreStore = defineResource({
  name: 'core_store',
  title: 'Store API',
  aliases: ['store'],
  faults: { store_not_exists: ['100', 'Requested store view not found.'] },
  methods: {
    list: {
      title: 'Retrieve store list',
      permission: ['stores', 'read'],
      params: [],
      run: async (ctx) => ctx.app.settings.allStores().map(storeRecord),
    },
    info: {
      title: 'Retrieve store data',
      permission: ['stores', 'read'],
      params: ['storeId'],
      run: async (ctx, [storeId]) => {
        const s = findStore(ctx, storeId);
        if (!s) throw resourceFault(coreStore, 'store_not_exists');
        return storeRecord(s);
      },
    },
  },
});

/**
 * `core_magento.info` (`magento.info`): the edition and version of the Magento 1 API this server answers, which
 * integrations check before they call it.
 */
export const coreMagento = defineResource({
  name: 'core_magento',
  title: 'Magento info API',
  aliases: ['magento'],
  faults: {},
  methods: {
    info: {
      title: 'Get info about current Magento installation',
      params: [],
      run: async () => record({ magento_edition: 'Community', magento_version: '1.9.4.5' }),
    },
  },
});

export const directoryCountry = defineResource({
  name: 'directory_country',
  title: 'Country API',
  aliases: ['country'],
  faults: {},
  methods: {
    list: {
      title: 'List of countries',
      params: [],
      run: async (ctx) =>
        COUNTRIES.map((c) => {
          const d = getCountry(ctx, c.iso2);
          return record({ country_id: d.id, iso2_code: d.iso2Code, iso3_code: d.iso3Code, name: d.name });
        }),
    },
  },
});

export const directoryRegion = defineResource({
  name: 'directory_region',
  title: 'Region API',
  aliases: ['region'],
  faults: { country_not_exists: ['101', 'Country not exists.'] },
  methods: {
    list: {
      title: 'List of regions in specified country',
      params: ['country'],
      run: async (ctx, [country]) => {
        if (typeof country !== 'string' || !country.trim()) throw resourceFault(directoryRegion, 'country_not_exists');
        let regions;
        try {
          regions = getCountry(ctx, country).availableRegions;
        } catch {
          throw resourceFault(directoryRegion, 'country_not_exists');
        }
        return regions.map((r) => record({ region_id: r.id, code: r.code, name: r.name }));
      },
    },
  },
});

export const customerGroup = defineResource({
  name: 'customer_group',
  title: "Customer's Groups API",
  faults: {},
  methods: {
    list: {
      title: 'Retrieve customer groups',
      permission: ['customer-groups', 'read'],
      params: [],
      run: async (ctx) =>
        (await listCustomerGroups(ctx)).items.map((g) => record({ customer_group_id: g.id, customer_group_code: g.code })),
    },
  },
});
