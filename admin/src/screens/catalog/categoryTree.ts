/** The category tree as the back office reads it (every category, parents first), nested. */
import { useQuery } from '@tanstack/react-query';
import { api, unwrap, type Row } from '../../api/client';
import { collection } from '../../api/lists';
import { inStore } from './shared';

export type CategoryRow = Row<'/api/rest/v2/categories/tree'>;
export interface CategoryNode {
  category: CategoryRow;
  children: CategoryNode[];
}

export function useCategoryTree(scope = '') {
  return useQuery({
    queryKey: ['catalog', 'category-tree', scope],
    // others change the tree too: read again whenever a screen shows it
    staleTime: 0,
    queryFn: async () => {
      const list = collection<CategoryRow>(await unwrap(api.GET('/api/rest/v2/categories/tree', { ...inStore(scope) }))).items;
      // the tree answers what lies below the store's root category: the root categories of the store groups are read on their own
      const ids = new Set(list.map((c) => c.id));
      const stores = collection<{ rootCategoryId: number }>(await unwrap(api.GET('/api/rest/v2/stores'))).items;
      const roots = new Set([
        ...stores.map((s) => s.rootCategoryId),
        ...list.map((c) => c.parentId).filter((id): id is number => id !== undefined && !ids.has(id)),
      ]);
      for (const id of roots) {
        if (ids.has(id)) continue;
        const root = await unwrap(api.GET('/api/rest/v2/categories/{id}', { params: { path: { id } }, ...inStore(scope) })).catch(
          () => undefined,
        );
        if (root) list.unshift(root);
      }
      return nest(list);
    },
  });
}

/** Nests the flat list by parentId, siblings by position; categories whose parent is not listed are roots. */
export function nest(list: CategoryRow[]): CategoryNode[] {
  const nodes = new Map(list.map((c) => [c.id, { category: c, children: [] as CategoryNode[] }]));
  const roots: CategoryNode[] = [];
  for (const n of nodes.values()) {
    const parent = n.category.parentId === undefined ? undefined : nodes.get(n.category.parentId);
    (parent ? parent.children : roots).push(n);
  }
  const sort = (ns: CategoryNode[]) => {
    ns.sort((a, b) => a.category.position - b.category.position || a.category.id - b.category.id);
    for (const n of ns) sort(n.children);
  };
  sort(roots);
  return roots;
}

/** Depth-first, with each node's depth. */
export function flatten(nodes: CategoryNode[], depth = 0): { node: CategoryNode; depth: number }[] {
  return nodes.flatMap((n) => [{ node: n, depth }, ...flatten(n.children, depth + 1)]);
}
