import { createFileRoute } from '@tanstack/react-router';
import { ProductCreate } from '../../../screens/catalog/ProductCreate';

export const Route = createFileRoute('/_app/products/new')({
  validateSearch: (s: Record<string, unknown>): { type?: string } => (typeof s.type === 'string' ? { type: s.type } : {}),
  component: Screen,
});

function Screen() {
  const { type } = Route.useSearch();
  return <ProductCreate type={type} />;
}
