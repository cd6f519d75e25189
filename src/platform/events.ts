/**
 * Domain events. A module declares its events once, with `defineEvents` (type name, description, payload
 * schema), lists the declarations as its AppModule's `events`, and emits through them from inside the
 * transaction of the change: `orderEvents.emit(tx, 'order.placed', ref, () => payload)`, the type name and the
 * payload checked at compile time. Modules that react (the webhooks outbox) contribute `subscribers`; the bus,
 * built once by the app from every module's declarations and subscribers (`ctx.app.events`), hands each emitted
 * event to every subscriber that wants it.
 *
 * An event no subscriber wants costs nothing: `wants` is asked first, and the payload (a function, as a rule) is
 * rendered only when a subscriber asks for it, once for all of them.
 */
import type { Static } from 'typebox';
import type { AppServices, Ctx, EventBus } from './context.js';
import type { EmittedEvent, EventDeclaration, EventDeclarations, EventRef, PayloadOf } from './event-types.js';

export type { EventBus } from './context.js';
export type { EmittedEvent, EventDeclaration, EventDeclarations, EventRef, PayloadOf } from './event-types.js';

/** Who listens: asked whether it wants an event before anything is rendered, then handed the event. */
export interface EventSubscriber {
  /** for logs and errors */
  name: string;
  /** whether it wants `type` in the store view (null: of a resource every store view shares); asked on every emit, so cheap */
  wants(app: AppServices, type: string, storeId: number | null): boolean;
  /**
   * Takes a wanted event, inside the transaction of its change, at once (synchronously): a subscriber that writes
   * renders `event.data()` and writes before the commit (`beforeCommit`), one that acts outside the database acts
   * after it (`afterCommit`); a change that rolls back then leaves no trace of its events.
   */
  receive(ctx: Ctx, event: EmittedEvent): void;
}

type PayloadType<D extends EventDeclarations, K extends keyof D> = Static<D[K]['payload']>;

/** The events of one module: its declarations, and emitting them with the type name and payload checked. */
export interface EventSet<D extends EventDeclarations> {
  readonly declarations: D;
  /** Emits `type` about `ref` from inside the transaction of the change (throws outside one). */
  emit<K extends keyof D & string>(ctx: Ctx, type: K, ref: EventRef, data: PayloadOf<PayloadType<D, K>>): void;
}

/** Declares a module's events; list `declarations` as the module's AppModule `events`. */
export function defineEvents<const D extends EventDeclarations>(declarations: D): EventSet<D> {
  return {
    declarations,
    emit: (ctx, type, ref, data) => ctx.app.events.publish(ctx, type, ref, data),
  };
}

/** The events of a set, as a subscriber of that set receives them: a union discriminated by `type`. */
export type EventOf<S> =
  S extends EventSet<infer D> ? { [K in keyof D & string]: EmittedEvent<K, PayloadType<D, K>> }[keyof D & string] : never;

/**
 * A subscriber to the events of one set (or some of its types), receiving them typed: `event.type` narrows
 * `event.data()`. `wants` may narrow further (store views, runtime state).
 */
export function subscriberOf<S extends EventSet<EventDeclarations>>(
  name: string,
  set: S,
  receive: (ctx: Ctx, event: EventOf<S>) => void,
  opts: {
    types?: readonly (keyof S['declarations'] & string)[];
    wants?: (app: AppServices, type: string, storeId: number | null) => boolean;
  } = {},
): EventSubscriber {
  const types = new Set<string>(opts.types ?? Object.keys(set.declarations));
  return {
    name,
    wants: (app, type, storeId) => types.has(type) && (opts.wants?.(app, type, storeId) ?? true),
    receive: (ctx, event) => receive(ctx, event as EventOf<S>),
  };
}

/** Builds the bus from the modules' declarations and subscribers; a type declared twice is refused. */
export function createEventBus(
  modules: readonly { name: string; events?: EventDeclarations; subscribers?: EventSubscriber[] }[],
  app: () => AppServices,
): EventBus {
  const declared = new Map<string, EventDeclaration>();
  const owner = new Map<string, string>();
  for (const m of modules) {
    for (const [type, declaration] of Object.entries(m.events ?? {})) {
      if (owner.has(type)) throw new Error(`Event ${type} is declared by both ${owner.get(type)} and ${m.name}`);
      owner.set(type, m.name);
      declared.set(type, declaration);
    }
  }
  const subscribers = modules.flatMap((m) => m.subscribers ?? []);
  return {
    declared,
    wants: (type, storeId) => subscribers.some((s) => s.wants(app(), type, storeId)),
    publish(ctx, type, ref, data) {
      if (!declared.has(type)) throw new Error(`Event ${type} is declared by no module listed in the app`);
      if (!ctx.tx) throw new Error(`${type} must be emitted inside the transaction of its change`);
      const storeId = ref.storeId === undefined ? ctx.store.storeId : ref.storeId;
      let event: EmittedEvent | undefined;
      for (const s of subscribers) {
        if (!s.wants(ctx.app, type, storeId)) continue;
        event ??= emitted(type, ref, storeId, data);
        s.receive(ctx, event);
      }
    },
  };
}

function emitted(type: string, ref: EventRef, storeId: number | null, data: PayloadOf<unknown>): EmittedEvent {
  let rendered: Promise<unknown> | undefined;
  const render = async () => (typeof data === 'function' ? await (data as () => unknown)() : data) ?? null;
  return { type, resource: ref.resource, resourceId: String(ref.id), storeId, data: () => (rendered ??= render()) };
}

/** A bus that hands events to nobody (operator commands, which change data in bulk, emit nothing). */
export const noEvents: EventBus = { declared: new Map(), wants: () => false, publish: () => undefined };
