/** Wire shapes of shipments (wire reference §2.8): the shipment read, and the create, track and comment bodies. */
import { Type, type Static, type TSchema } from 'typebox';

const Opt = <T extends TSchema>(s: T) => Type.Optional(s);
const INT_MAX = 2147483647;
/** what NUMERIC(12,4) holds */
export const MAX_QTY = 99_999_999;
export const TEXT_MAX = 255;
export const COMMENT_MAX = 65_535;

export const ShipmentItem = Type.Object({
  id: Type.Integer(),
  orderItemId: Type.Integer(),
  productId: Type.Integer(),
  sku: Type.String(),
  name: Type.String(),
  description: Opt(Type.String()),
  qty: Type.Number(),
  price: Type.Number({ description: 'unit price in the order currency' }),
  rowTotal: Type.Number({ description: 'price × qty' }),
  weight: Opt(Type.Number({ description: 'unit weight' })),
});

export const ShipmentTrack = Type.Object({
  id: Type.Integer({ description: 'the track row id (what DELETE /shipments/{id}/tracks/{trackId} takes)' }),
  carrier: Type.String({ description: 'carrier code (written as carrierCode)' }),
  title: Type.String(),
  trackNumber: Type.String(),
  description: Opt(Type.String()),
  weight: Opt(Type.Number()),
  qty: Opt(Type.Number()),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});

export const ShipmentComment = Type.Object({
  id: Type.Integer(),
  comment: Type.String(),
  createdAt: Type.String(),
  isCustomerNotified: Type.Boolean(),
  isVisibleOnFront: Type.Boolean(),
});

export const Shipment = Type.Object({
  id: Type.Integer(),
  orderId: Type.Integer(),
  incrementId: Type.String(),
  orderIncrementId: Type.String(),
  totalQty: Type.Number(),
  totalWeight: Opt(Type.Number()),
  storeId: Type.Integer(),
  emailSent: Type.Boolean(),
  shipmentStatus: Opt(Type.Integer()),
  createdAt: Type.String(),
  updatedAt: Type.String(),
  packages: Type.Array(Type.Unknown()),
  comments: Type.Array(ShipmentComment, { description: 'newest first' }),
  tracks: Type.Array(ShipmentTrack),
  items: Type.Array(ShipmentItem),
});
export type ShipmentDto = Static<typeof Shipment>;

const trackFields = {
  carrierCode: Opt(Type.String({ maxLength: TEXT_MAX, description: 'default `custom`' })),
  title: Opt(Type.String({ maxLength: TEXT_MAX, description: 'default: the carrier code' })),
  trackNumber: Type.String({ maxLength: TEXT_MAX, description: 'required, not blank' }),
};

export const TrackInput = Type.Object(trackFields, { additionalProperties: false });
export type TrackInputDto = Static<typeof TrackInput>;

export const ShipmentItemInput = Type.Object(
  {
    orderItemId: Type.Integer({ description: 'an item of the order (> 0)' }),
    qty: Type.Number({ description: '> 0, at most what is left to ship; whole units unless the item takes decimals' }),
  },
  { additionalProperties: false },
);

export const ShipmentCreate = Type.Object(
  {
    items: Opt(Type.Array(ShipmentItemInput, { maxItems: 1000, description: 'omitted or empty: everything left to ship' })),
    tracks: Opt(Type.Array(TrackInput, { maxItems: 100 })),
    comment: Opt(Type.String({ maxLength: COMMENT_MAX })),
    notifyCustomer: Opt(Type.Boolean({ description: 'mail the shipment to the customer' })),
    visibleOnFront: Opt(Type.Boolean({ description: 'the comment is shown to the customer' })),
  },
  { additionalProperties: false },
);
export type ShipmentCreateInput = Static<typeof ShipmentCreate>;

export const ShipmentCommentCreate = Type.Object(
  {
    comment: Opt(Type.String({ maxLength: COMMENT_MAX, description: 'required (or its alias note)' })),
    note: Opt(Type.String({ maxLength: COMMENT_MAX, description: 'alias of comment' })),
    notifyCustomer: Opt(Type.Boolean()),
    visibleOnFront: Opt(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type ShipmentCommentInput = Static<typeof ShipmentCommentCreate>;

const Id = (description: string) => Type.Integer({ minimum: 1, maximum: INT_MAX, description });

export const OrderShipmentsParams = Type.Object({ orderId: Id('order id') });
export const ShipmentParams = Type.Object({ id: Id('shipment id') });
export const TrackParams = Type.Object({ id: Id('shipment id'), trackId: Id('track row id') });
