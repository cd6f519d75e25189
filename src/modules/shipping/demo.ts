/** Demo shipping: flat rate 5.00 per item, free shipping from 100, and a small US table-rate set (left inactive). */
import type { Ctx } from '../../platform/context.js';
import { setConfig } from '../stores/service.js';
import { importTableRates } from './tablerates.js';

const DEMO_TABLE_RATES = `Country,Region/State,Zip/Postal Code,Weight (and above),Shipping Price
USA,*,*,0,5.00
USA,*,*,5,8.00
USA,*,*,10,12.00
USA,AK,*,0,15.00
USA,HI,*,0,15.00
`;

export async function seedDemo(ctx: Ctx): Promise<void> {
  const r = ctx.app.settings;
  await setConfig(ctx.db, r, 'carriers/freeshipping/active', '1');
  await setConfig(ctx.db, r, 'carriers/freeshipping/free_shipping_subtotal', '100');
  await importTableRates(ctx, 1, 'package_weight', DEMO_TABLE_RATES);
}
