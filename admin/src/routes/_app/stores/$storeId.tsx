import { createFileRoute } from '@tanstack/react-router';
import { StorePage } from '../../../screens/system/Stores';

export const Route = createFileRoute('/_app/stores/$storeId')({
  component: function StoreRoute() {
    const { storeId } = Route.useParams();
    return <StorePage key={storeId} storeId={storeId} />;
  },
});
