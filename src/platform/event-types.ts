/** The shapes of domain events (see events.ts), apart so that the context's services can name them. */
import type { TSchema } from 'typebox';

export interface EventDeclaration<P extends TSchema = TSchema> {
  /** what happened, for people (the subscription documentation) */
  description: string;
  /** the payload: the resource as the REST API shows it */
  payload: P;
}

/** A module's events by type name (`order.placed`). */
export type EventDeclarations = Readonly<Record<string, EventDeclaration>>;

/** What an event is about. */
export interface EventRef {
  /** `order`, `product`, ... */
  resource: string;
  id: number | string;
  /** the store view it belongs to (an order's); null for what every store view shares (a product, stock); default: the request's */
  storeId?: number | null;
}

/** An event as a subscriber receives it. */
export interface EmittedEvent<T extends string = string, P = unknown> {
  type: T;
  resource: string;
  resourceId: string;
  storeId: number | null;
  /**
   * The payload, rendered on the first call (inside the transaction: call it before the commit), the same answer
   * for every later call and every subscriber; null where the resource is gone.
   */
  data(): Promise<P | null>;
}

/** A payload, or a function giving it (run only when a subscriber wants the event). */
export type PayloadOf<P> = P | null | (() => P | null | Promise<P | null>);
