import { sql } from 'drizzle-orm';
import type { Db } from '../../../platform/db.js';
import { categories } from '../tables.js';

/**
 * Install data: the tree root (id 1, level 0) and "Default Category" (id 2, level 1), the root category of
 * the default store group. Ids are given explicitly, so the id sequence is moved past them.
 */
export async function installCategories(db: Db): Promise<void> {
  await db
    .insert(categories)
    .values([
      {
        id: 1,
        parentId: null,
        path: '1',
        level: 0,
        position: 0,
        name: 'Root Catalog',
        urlKey: 'root-catalog',
        includeInMenu: false,
        storeValues: {},
      },
      { id: 2, parentId: 1, path: '1/2', level: 1, position: 1, name: 'Default Category', urlKey: 'default-category', storeValues: {} },
    ])
    .onConflictDoNothing();
  await db.execute(sql`SELECT setval(pg_get_serial_sequence('categories', 'id'), (SELECT max(id) FROM categories))`);
}
