import { createFileRoute } from '@tanstack/react-router';
import { ProductPage } from '../../../screens/catalog/ProductPage';

export const Route = createFileRoute('/_app/products/$productId')({
  component: Screen,
});

function Screen() {
  const { productId } = Route.useParams();
  return <ProductPage key={productId} productId={Number(productId)} />;
}
