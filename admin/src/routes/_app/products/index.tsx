import { createFileRoute } from '@tanstack/react-router';
import { ProductsGrid } from '../../../screens/catalog/ProductsGrid';

export const Route = createFileRoute('/_app/products/')({
  component: ProductsGrid,
});
