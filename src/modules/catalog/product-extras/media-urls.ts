/**
 * Where media files are served from: the media root of a store view and the URL of a product image. Apart from
 * the gallery service, so that product reads (which the gallery touches after a change) and other modules'
 * pages name images without depending on uploads.
 */
import type { Ctx } from '../../../platform/context.js';

/** The folder under the media root that product image paths are relative to. */
export const PRODUCT_MEDIA_FOLDER = 'catalog/product';

/** Where media files are served from in a store view, with a trailing slash. */
export function baseMediaUrl(ctx: Ctx, storeId = ctx.store.storeId): string {
  const configured = ctx.app.settings.get('web/unsecure/base_media_url', storeId);
  const url = configured || `${ctx.app.settings.baseUrl(storeId)}media/`;
  return url.endsWith('/') ? url : `${url}/`;
}

/** The full URL of a product image file (`/a/b/name.webp`). */
export function productImageUrl(ctx: Ctx, file: string): string {
  return `${baseMediaUrl(ctx)}${PRODUCT_MEDIA_FOLDER}${file}`;
}
