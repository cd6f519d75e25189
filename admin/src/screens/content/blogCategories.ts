/** Every blog category (for the post form's choice, the parent choice and the grids' filters), read once a while. */
import { useQuery } from '@tanstack/react-query';
import { api, unwrap, type Row } from '../../api/client';
import { collection } from '../../api/lists';

export type BlogCategory = Row<'/api/rest/v2/blog-categories'>;

export function useBlogCategories(): BlogCategory[] {
  const q = useQuery({
    queryKey: ['blog-categories', 'all'],
    queryFn: async () => {
      const out: BlogCategory[] = [];
      for (let page = 1; page < 50; page++) {
        const r = collection<BlogCategory>(
          await unwrap(
            api.GET('/api/rest/v2/blog-categories', { params: { query: { scope: 'all', itemsPerPage: 100, page, sortBy: 'name' } } }),
          ),
        );
        out.push(...r.items);
        if (out.length >= r.total || !r.items.length) break;
      }
      return out;
    },
    staleTime: 60_000,
  });
  return q.data ?? [];
}

/** A category's name with its ancestors' ("News › Shop"), from its path of ids. */
export function categoryLabel(c: BlogCategory, all: BlogCategory[]): string {
  return c.path
    .split('/')
    .map((id) => all.find((x) => String(x.id) === id)?.name ?? id)
    .join(' › ');
}
