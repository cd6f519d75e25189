import { access } from '../../platform/auth/access.js';
import type { RestApp } from '../../platform/module.js';
import { Giftcard, GiftcardCreate, GiftcardParams } from './schemas.js';
import * as cards from './service.js';

const tags = ['giftcards'];

export function routes(app: RestApp): void {
  app.get(
    '/giftcards/:id',
    {
      schema: {
        operationId: 'giftcards.get',
        tags,
        summary: 'One gift card with its balance history (newest first)',
        params: GiftcardParams,
        response: { 200: Giftcard },
      },
      config: { access: access.admin('giftcards', 'read') },
    },
    async (req) => cards.getGiftcard(req.ctx, req.params.id),
  );
  app.post(
    '/giftcards',
    {
      schema: {
        operationId: 'giftcards.create',
        tags,
        summary: 'Create a gift card; the code is generated unless given, and a mail goes to recipientEmail if given',
        body: GiftcardCreate,
        response: { 201: Giftcard },
      },
      config: { access: access.admin('giftcards', 'create') },
    },
    async (req, reply) => reply.code(201).send(await cards.createGiftcard(req.ctx, req.body)),
  );
}
