/**
 * What `ctx.app.settings` is: the store registry (websites, store views, scoped config and currency rates).
 *
 * The platform knows it only as `Settings`. The stores module, which implements it
 * (`src/modules/stores/registry.ts`), adds the rest of its surface by augmenting this interface, the way
 * Fastify plugins augment Fastify's types, so that no platform file imports from a module.
 */
import type { Settings } from './settings.js';

/** Filled in by the stores module. */
export interface StoreRegistry extends Settings {}
