/**
 * `giftmessage` of the Magento 1 API: the gift message of a cart (setForQuote), of one of its lines by the line's
 * id (setForQuoteItem) or of the lines some products make (setForQuoteProduct), over the carts' gift messages (the
 * order and its items take them when it is placed). A message is `from`, `to` and `message`; an empty message
 * removes it. Each answers Magento's result: the entity's id, whether it was set, and why not (gift messages not
 * enabled in the store view: sales/gift_options/allow_order, allow_items).
 */
import { AppError } from '../../../platform/errors.js';
import { cartOfItem, lineOf, resolveRequests, setLineGiftMessages, type LegacyLineRequest } from '../../carts/legacy.js';
import { setGiftMessage } from '../../carts/details.js';
import { cartContext, type CartRow } from '../../carts/pricing.js';
import { isRecord } from '../encoding.js';
import { defineResource, idArg, resourceFault, type LegacyValue } from '../resources.js';
import { cartRef, entriesOf, productEntry, productRequests, QUOTE_FAULTS, quoteArg, type ProductEntry } from './cart-shared.js';

type GiftMessage = NonNullable<CartRow['giftMessage']>;

const text = (v: LegacyValue | undefined) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : v == null ? '' : undefined);

/** A message struct (`from`, `to`, `message`) as the cart keeps it; null when its message is empty (remove it). */
function messageOf(v: LegacyValue | undefined): GiftMessage | null {
  if (!isRecord(v) || !v.size) throw resourceFault(giftmessage, 'giftmessage_invalid_data');
  const [sender, recipient, message] = [text(v.get('from')), text(v.get('to')), text(v.get('message'))];
  if (sender === undefined || recipient === undefined || message === undefined)
    throw resourceFault(giftmessage, 'giftmessage_invalid_data');
  if (sender.length > 255 || recipient.length > 255 || message.length > 4000) {
    throw resourceFault(giftmessage, 'giftmessage_invalid_data', 'From and to take at most 255 characters, the message 4000.');
  }
  return message.trim() ? { sender: sender.trim(), recipient: recipient.trim(), message } : null;
}

const result = (entityId: number, error?: string) =>
  new Map<string, LegacyValue>([
    ['entityId', String(entityId)],
    ['result', error === undefined],
    ['error', error ?? ''],
  ]);

/** Runs a change; a refusal of the carts service (gift messages disabled, ...) is its message, as Magento reports it. */
async function attempt(change: () => Promise<unknown>): Promise<string | undefined> {
  try {
    await change();
    return undefined;
  } catch (err) {
    if (err instanceof AppError && err.reason === 'CART_NOT_FOUND') throw resourceFault(giftmessage, 'quote_not_exists');
    if (err instanceof AppError && err.reason === 'CART_ITEM_NOT_FOUND') throw resourceFault(giftmessage, 'quote_item_not_exists');
    if (err instanceof AppError && err.status < 500) return err.message;
    throw err;
  }
}

/** The products-and-messages pairs of setForQuoteProduct (one pair alone is taken as a list of one). */
function pairsOf(v: LegacyValue | undefined): { product: ProductEntry; message: GiftMessage | null }[] {
  const list = isRecord(v) && v.has('product') && v.has('message') ? [v] : entriesOf(v);
  if (!list?.length) throw resourceFault(giftmessage, 'giftmessage_invalid_data');
  const out: { product: ProductEntry; message: GiftMessage | null }[] = [];
  for (const pair of list) {
    // as Magento: an entry without both parts is passed over
    if (!isRecord(pair) || !pair.has('product') || !pair.has('message')) continue;
    const product = productEntry(pair.get('product')!);
    if (!product || !product.entry.size) throw resourceFault(giftmessage, 'product_invalid_data');
    const message = messageOf(pair.get('message'));
    if (product.ref) out.push({ product, message });
  }
  return out;
}

export const giftmessage = defineResource({
  name: 'giftmessage',
  title: 'Gift Message API',
  faults: {
    ...QUOTE_FAULTS,
    giftmessage_invalid_data: ['1101', 'Gift message data is not valid.'],
    product_invalid_data: ['1102', "Product's data is not valid."],
    quote_item_not_exists: ['1103', 'Quote item is not exists'],
  },
  methods: {
    setForQuote: {
      title: 'Add gift message for shopping cart',
      permission: ['carts', 'write'],
      params: ['quoteId', 'giftMessage', 'store'],
      run: async (ctx, [quoteId, giftMessage, store]) => {
        const { cart } = await quoteArg(ctx, giftmessage, quoteId, store);
        const message = messageOf(giftMessage);
        return result(cart.id, await attempt(() => setGiftMessage(ctx, cartRef(cart.id), message)));
      },
    },
    setForQuoteItem: {
      title: 'Add gift messages for quote item of shopping cart',
      permission: ['carts', 'write'],
      params: ['quoteItemId', 'giftMessage', 'store'],
      run: async (ctx, [quoteItemId, giftMessage, store]) => {
        const itemId = idArg(quoteItemId);
        const cartId = itemId === undefined ? undefined : await cartOfItem(ctx, itemId);
        if (itemId === undefined || cartId === undefined) throw resourceFault(giftmessage, 'quote_item_not_exists');
        const { cart } = await quoteArg(ctx, giftmessage, cartId, store);
        const message = messageOf(giftMessage);
        return result(itemId, await attempt(() => setLineGiftMessages(ctx, cart.id, new Map([[itemId, message]]))));
      },
    },
    setForQuoteProduct: {
      title: 'Add gift messages to products of shopping cart',
      permission: ['carts', 'write'],
      params: ['quoteId', 'productsAndMessages', 'store'],
      run: async (ctx, [quoteId, productsAndMessages, store]) => {
        const loaded = await quoteArg(ctx, giftmessage, quoteId, store);
        const pairs = pairsOf(productsAndMessages);
        const cctx = cartContext(ctx, loaded.cart);
        const requests = await productRequests(
          cctx,
          pairs.map((p) => p.product),
          false,
        );
        const ok = requests.filter((r): r is LegacyLineRequest => !('error' in r));
        const resolved = await resolveRequests(cctx, ok, loaded.version);
        // every pair must name a line of the cart (Magento: quote_item_not_exists) before anything is set
        const messages = new Map<number, GiftMessage | null>();
        requests.forEach((r, i) => {
          const item = 'error' in r ? undefined : lineOf(loaded.items, r, resolved[ok.indexOf(r)]);
          if (!item) throw resourceFault(giftmessage, 'quote_item_not_exists');
          messages.set(item.id, pairs[i].message);
        });
        const error = await attempt(() => setLineGiftMessages(ctx, loaded.cart.id, messages));
        return [...messages.keys()].map((id) => result(id, error));
      },
    },
  },
});
