/**
 * `catalog_product_attribute_media` (`product_media`, `product_attribute_media`) of the Magento 1 API: a product's
 * gallery over the catalog's media service. An image is named by its file (`/a/b/name.webp`), as Magento names it.
 * An upload is a base64 file (`file: {content, mime, name}`) of one of Magento's image types, checked, converted
 * and limited in size (catalog/media/max_upload_bytes) as the REST upload is; an update may send new content,
 * written over the image's file. Labels, positions and roles are kept once for every store view: a `store`
 * argument is checked, and its values are those of every store view. Products by id or SKU (`identifierType`).
 */
import { currentStoreMethod } from '../current-store.js';
import type { Ctx } from '../../../platform/context.js';
import { AppError } from '../../../platform/errors.js';
import { withTx } from '../../../platform/context.js';
import { attributeSetExists } from '../../catalog/attributes/service.js';
import { legacyFlag, legacyInt, legacyProduct, legacyStore } from '../../catalog/product-extras/legacy.js';
import { replaceMediaFile, storedImageFormat } from '../../catalog/product-extras/legacy-media.js';
import { MEDIA_ROLES, type MediaRole, type ProductMediaDto } from '../../catalog/product-extras/media-schemas.js';
import {
  addProductMedia,
  convertBase64Image,
  deleteProductMedia,
  listProductMedia,
  updateProductMedia,
} from '../../catalog/product-extras/media-service.js';
import { isRecord, type SoapRecord } from '../encoding.js';
import { defineResource, idArg, resourceFault, type LegacyValue } from '../resources.js';

/** Magento's image types and the extension each is named with. */
const MIME_TYPES: Record<string, string> = {
  'image/webp': 'webp',
  'image/avif': 'avif',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/png': 'png',
};
const INT_MAX = 2147483647;

const rec = (entries: [string, LegacyValue][]) => new Map<string, LegacyValue>(entries);
const fault = (name: string, detail?: string) => resourceFault(productMedia, name, detail);

function imageRecord(img: ProductMediaDto): LegacyValue {
  return rec([
    ['file', img.file],
    ['label', img.label ?? null],
    ['position', img.position],
    ['exclude', img.disabled ? 1 : 0],
    ['url', img.url],
    ['types', [...img.types]],
  ]);
}

/** The product named, after the store view (Magento checks the store first): faults 100 and 101. */
async function productOf(ctx: Ctx, ref: LegacyValue | undefined, store: LegacyValue | undefined, identifierType: LegacyValue | undefined) {
  if (legacyStore(ctx, store) === undefined) throw fault('store_not_exists');
  const p = await legacyProduct(ctx, ref, identifierType);
  if (!p) throw fault('product_not_exists');
  return p;
}

/** The product's gallery (a product out of the caller's reach is fault 101, as one that does not exist). */
async function gallery(ctx: Ctx, productId: number): Promise<ProductMediaDto[]> {
  try {
    return await listProductMedia(ctx, productId);
  } catch (err) {
    return failed(err, 'data_invalid');
  }
}

async function imageOf(ctx: Ctx, productId: number, file: LegacyValue | undefined): Promise<ProductMediaDto> {
  const img = typeof file === 'string' ? (await gallery(ctx, productId)).find((i) => i.file === file.trim()) : undefined;
  if (!img) throw fault('not_exists');
  return img;
}

/** A refusal of the media service as this resource's fault; `otherwise` for the rest of the 4xx. */
function failed(err: unknown, otherwise: string, base64Message = 'The image contents is not valid base64 data.'): never {
  if (err instanceof AppError && err.status < 500) {
    const field = typeof err.details?.field === 'string' ? err.details.field : '';
    const constraint = err.details?.constraint;
    if (err.reason === 'MEDIA_NOT_FOUND') throw fault('not_exists');
    if (err.status === 404) throw fault('product_not_exists');
    if (err.reason === 'FILE_TOO_LARGE') throw fault('data_invalid', `The image is larger than ${String(err.details?.maxBytes)} bytes.`);
    if (field === 'base64' || field === 'file.content') {
      if (constraint === 'image')
        throw fault('not_created', 'Unsupported image format: the content is not a JPEG, PNG, WebP, GIF or AVIF image.');
      if (constraint === 'maximum') throw fault('not_created', 'The image has too many pixels.');
      throw fault('data_invalid', base64Message);
    }
    if (err.reason === 'VALIDATION_FAILED') throw fault('data_invalid', err.message);
    throw fault(otherwise, err.message);
  }
  throw err;
}

interface ImageFields {
  label?: string | null;
  position?: number;
  disabled?: boolean;
  types?: MediaRole[];
}

/** label, position, exclude and types of an image's data (the keys sent); fault 102 for a value of the wrong kind. */
function imageFields(data: SoapRecord): ImageFields {
  const out: ImageFields = {};
  const label = data.get('label');
  if (label !== undefined) {
    if (label !== null && typeof label !== 'string' && typeof label !== 'number') throw fault('data_invalid', 'label must be text.');
    out.label = label === null ? null : String(label);
    if (out.label !== null && out.label.length > 255) throw fault('data_invalid', 'label is longer than 255 characters.');
  }
  const position = legacyInt(data.get('position'), 0, INT_MAX);
  if (Number.isNaN(position)) throw fault('data_invalid', 'position must be a whole number of at least 0.');
  if (position !== undefined) out.position = position;
  const exclude = legacyFlag(data.get('exclude'));
  if (exclude === null) throw fault('data_invalid', 'exclude must be 0 or 1.');
  if (exclude !== undefined) out.disabled = exclude;
  const types = data.get('types');
  if (types !== undefined && types !== null) {
    const list = Array.isArray(types) ? types : [types];
    const unknown = list.find((x) => typeof x !== 'string' || !(MEDIA_ROLES as readonly string[]).includes(x));
    if (unknown !== undefined) throw fault('data_invalid', `Unknown image type ${JSON.stringify(unknown)}: use ${MEDIA_ROLES.join(', ')}.`);
    out.types = [...new Set(list as MediaRole[])];
  }
  return out;
}

/** The file of an image's data: its content and type, checked as Magento checks them (fault 102). */
function fileOf(data: SoapRecord, required: boolean): { content: string; mime: string; name?: string } | undefined {
  const file = data.get('file');
  const mime = isRecord(file) ? file.get('mime') : undefined;
  const content = isRecord(file) ? file.get('content') : undefined;
  if (mime === undefined || mime === null || content === undefined || content === null) {
    if (required) throw fault('data_invalid', 'The image is not specified.');
    return undefined;
  }
  if (typeof mime !== 'string' || !Object.hasOwn(MIME_TYPES, mime)) throw fault('data_invalid', 'Invalid image type.');
  if (typeof content !== 'string' || !content.trim()) {
    throw fault('data_invalid', required ? 'The image contents is not valid base64 data.' : 'Image content is not valid base64 data.');
  }
  const name = isRecord(file) ? file.get('name') : undefined;
  return { content, mime, name: typeof name === 'string' && name.trim() ? name.trim() : undefined };
}

function dataOf(data: LegacyValue | undefined): SoapRecord {
  if (!isRecord(data)) throw fault('data_invalid', 'The image data must be a struct.');
  return data;
}

const read = ['products', 'read'] as [string, 'read'];
const write = ['products', 'write'] as [string, 'write'];

export const productMedia = defineResource({
  name: 'catalog_product_attribute_media',
  title: 'Product Images API',
  aliases: ['product_attribute_media', 'product_media'],
  faults: {
    store_not_exists: ['100', 'Requested store view not found.'],
    product_not_exists: ['101', 'Product not exists.'],
    data_invalid: ['102', 'Invalid data given. Details in error message.'],
    not_exists: ['103', "Requested image not exists in product images' gallery."],
    not_created: ['104', 'Image creation failed. Details in error message.'],
    not_updated: ['105', 'Image not updated. Details in error message.'],
    not_removed: ['106', 'Image not removed. Details in error message.'],
    not_media: ['107', "Requested product doesn't support images"],
  },
  methods: {
    currentStore: currentStoreMethod({
      name: 'catalog_product_attribute_media',
      faults: { store_not_exists: ['100', 'Requested store view not found.'] },
    }),
    list: {
      title: 'Retrieve product image list',
      permission: read,
      params: ['productId', 'store', 'identifierType'],
      run: async (ctx, [productId, store, identifierType]) => {
        const p = await productOf(ctx, productId, store, identifierType);
        return (await gallery(ctx, p.id)).map(imageRecord);
      },
    },
    info: {
      title: 'Retrieve product image',
      permission: read,
      params: ['productId', 'file', 'store', 'identifierType'],
      run: async (ctx, [productId, file, store, identifierType]) => {
        const p = await productOf(ctx, productId, store, identifierType);
        return imageRecord(await imageOf(ctx, p.id, file));
      },
    },
    types: {
      title: 'Retrieve product image types',
      permission: read,
      params: ['setId'],
      // the three roles are attributes of every attribute set, kept once for all store views
      run: async (ctx, [setId]) => {
        const id = idArg(setId);
        if (id === undefined || !(await attributeSetExists(ctx, id))) return [];
        return MEDIA_ROLES.map((code) =>
          rec([
            ['code', code],
            ['scope', 'global'],
          ]),
        );
      },
    },
    create: {
      title: 'Upload new product image ',
      permission: write,
      params: ['productId', 'data', 'store', 'identifierType'],
      run: async (ctx, [productId, data, store, identifierType]) => {
        const p = await productOf(ctx, productId, store, identifierType);
        const fields = dataOf(data);
        const file = fileOf(fields, true)!;
        const { label, position, disabled, types } = imageFields(fields);
        try {
          const img = await addProductMedia(ctx, p.id, {
            base64: file.content,
            filename: `${file.name ?? 'image'}.${MIME_TYPES[file.mime]}`,
            label,
            position,
            disabled,
            // Magento gives an upload no role unless it names them
            types: types ?? [],
          });
          return img.file;
        } catch (err) {
          return failed(err, 'not_created');
        }
      },
    },
    update: {
      title: 'Update product image',
      permission: write,
      params: ['productId', 'file', 'data', 'store', 'identifierType'],
      run: async (ctx, [productId, file, data, store, identifierType]) => {
        const p = await productOf(ctx, productId, store, identifierType);
        const img = await imageOf(ctx, p.id, file);
        const fields = dataOf(data);
        const upload = fileOf(fields, false);
        const changes = imageFields(fields);
        let content: Buffer | undefined;
        if (upload) {
          const format = storedImageFormat(img.file);
          if (!format) throw fault('not_updated', `The content of ${img.file} cannot be replaced; upload a new image instead.`);
          try {
            content = await convertBase64Image(ctx, upload.content, 'file.content', format);
          } catch (err) {
            return failed(err, 'not_updated', 'Image content is not valid base64 data.');
          }
        }
        try {
          await withTx(ctx, async (tx) => {
            await updateProductMedia(tx, p.id, { valueId: img.id, ...changes });
            if (content) await replaceMediaFile(tx, p.id, img.id, content);
          });
        } catch (err) {
          return failed(err, 'not_updated');
        }
        return true;
      },
    },
    remove: {
      title: 'Remove product image',
      permission: write,
      params: ['productId', 'file', 'identifierType'],
      run: async (ctx, [productId, file, identifierType]) => {
        const p = await productOf(ctx, productId, undefined, identifierType);
        const img = await imageOf(ctx, p.id, file);
        try {
          await deleteProductMedia(ctx, p.id, img.id);
        } catch (err) {
          return failed(err, 'not_removed');
        }
        return true;
      },
    },
  },
});
