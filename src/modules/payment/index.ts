import type { Ctx } from '../../platform/context.js';
import type { AppModule } from '../../platform/module.js';
import { setConfig } from '../stores/service.js';
import './service.js';

/** Demo data: cash on delivery enabled next to check / money order (Maho's write tests assume it). */
async function seedDemo(ctx: Ctx): Promise<void> {
  await setConfig(ctx.db, ctx.app.settings, 'payment/cashondelivery/active', '1');
}

export const paymentModule: AppModule = {
  name: 'payment',
  demo: seedDemo,
};
