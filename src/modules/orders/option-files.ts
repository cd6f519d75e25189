/** The option files order items refer to, which the orphan pass keeps. */
import type { Ctx } from '../../platform/context.js';
import { optionFileKeysReferencedBy } from '../catalog/product-extras/custom-option-files.js';
import { orderItems } from './tables.js';

/** The keys among `keys` of option files some order item refers to. */
export function optionFileKeysInOrders(ctx: Ctx, keys: string[]): Promise<string[]> {
  return optionFileKeysReferencedBy(ctx, orderItems, keys);
}
