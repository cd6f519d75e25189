/**
 * The Magento 1 API's replacement of a gallery image's file: Magento writes the new bytes over the file, which
 * keeps its name (the image's key in that API), so the new image is converted to the format its name says.
 */
import { and, count, eq, ne } from 'drizzle-orm';
import { withTx, type Ctx } from '../../../platform/context.js';
import { conflict, notFound } from '../../../platform/errors.js';
import { writeMediaFile } from '../../../platform/files.js';
import { lockProduct } from '../products/subresource-shared.js';
import { touchProduct } from '../products/touch.js';
import { productMedia } from '../tables.js';
import type { OutputFormat } from './media-service.js';
import { PRODUCT_MEDIA_FOLDER } from './media-urls.js';

const FORMATS: Record<string, OutputFormat> = { webp: 'webp', jpg: 'jpeg', jpeg: 'jpeg', png: 'png' };

/** The format a stored image is in, by its extension; undefined for one uploads are never converted to (a GIF, say). */
export function storedImageFormat(file: string): OutputFormat | undefined {
  const ext = /\.([a-z0-9]+)$/i.exec(file)?.[1]?.toLowerCase();
  return ext ? FORMATS[ext] : undefined;
}

/**
 * Writes `data` over the file of the product's image `valueId`, in the caller's transaction (the file is written
 * last, so that a refusal changes nothing): 404 when the product has no such image, 409 when another gallery
 * image shares the file (its products would change too).
 */
export async function replaceMediaFile(ctx: Ctx, productId: number, valueId: number, data: Buffer): Promise<void> {
  await withTx(ctx, async (tx) => {
    await lockProduct(tx, productId);
    const [row] = await tx.db
      .select({ file: productMedia.file })
      .from(productMedia)
      .where(and(eq(productMedia.id, valueId), eq(productMedia.productId, productId)))
      .for('update');
    if (!row) throw notFound(`Image ${valueId} not found on this product`, { reason: 'MEDIA_NOT_FOUND', details: { valueId } });
    const [shared] = await tx.db
      .select({ n: count() })
      .from(productMedia)
      .where(and(eq(productMedia.file, row.file), ne(productMedia.id, valueId)));
    if (shared.n > 0) {
      throw conflict('The image file is shared with other gallery images; upload the new image as an image of its own', {
        reason: 'FILE_SHARED',
      });
    }
    await touchProduct(tx, productId);
    await writeMediaFile(tx.app.config, `${PRODUCT_MEDIA_FOLDER}${row.file}`, data);
  });
}
