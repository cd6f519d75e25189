/**
 * `catalog_product_downloadable_link` (`product_downloadable_link`) of the Magento 1 API: the links of downloadable
 * products (a URL or a base64 file, each with an optional sample) over the catalog's downloadable link service.
 * Magento's checks of a link's data answer fault 415 with what is wrong (the message of the fault Magento names
 * for it). This store keeps samples with their links only, never samples of a product on their own: `list`
 * answers no `samples`, `add` of a `sample` is refused, and `remove` finds no sample. Products by id or SKU.
 */
import type { Ctx } from '../../../platform/context.js';
import { AppError } from '../../../platform/errors.js';
import { DOWNLOADABLE_DIR, DOWNLOADABLE_SAMPLES_DIR, statMediaFile } from '../../../platform/files.js';
import { dec } from '../../../platform/money.js';
import {
  downloadableLinkProductId,
  legacyDecimal,
  legacyDownloadableRows,
  legacyFlag,
  legacyInt,
  legacyProduct,
  legacyStore,
  type LegacyDownloadableRow,
} from '../../catalog/product-extras/legacy.js';
import { createDownloadableLink, deleteDownloadableLink } from '../../catalog/product-types/downloadable-service.js';
import type { DownloadableLinkCreateT } from '../../catalog/products/subresource-schemas.js';
import { isRecord, type SoapRecord } from '../encoding.js';
import { defineResource, idArg, resourceFault, type LegacyValue } from '../resources.js';

const rec = (entries: [string, LegacyValue][]) => new Map<string, LegacyValue>(entries);
const fault = (name: string, detail?: string) => resourceFault(downloadableLink, name, detail);
/** fault 415, its message what Magento's check names (one of this resource's faults, or a detail) */
const invalid = (what: string): never => {
  throw fault('validation_error', Object.hasOwn(downloadableLink.faults, what) ? downloadableLink.faults[what][1] : what);
};

function resourceTypeOf(v: LegacyValue | undefined): 'link' | 'sample' {
  if (v !== 'link' && v !== 'sample') invalid('unknown_resource_type');
  return v as 'link' | 'sample';
}

const given = (v: LegacyValue | undefined) => v !== undefined && v !== null && v !== '';

/** `file: {name, base64_content}` of a file link or sample. */
function fileOf(v: LegacyValue | undefined): { name: string; content: string } {
  const name = isRecord(v) ? v.get('name') : undefined;
  const content = isRecord(v) ? v.get('base64_content') : undefined;
  if (typeof name !== 'string' || !name.trim()) invalid('no_filename');
  if ((name as string).length > 255) invalid('The file name is longer than 255 characters.');
  if (typeof content !== 'string' || !content) invalid('no_file_base64_content');
  return { name: (name as string).trim(), content: content as string };
}

function urlOf(v: LegacyValue | undefined): string {
  if (typeof v !== 'string' || !v.trim()) invalid('empty_url');
  if ((v as string).length > 2048) invalid('The URL is longer than 2048 characters.');
  return (v as string).trim();
}

function uploadTypeOf(v: LegacyValue | undefined, fallback: 'file' | undefined): 'file' | 'url' | undefined {
  if (!given(v)) return fallback;
  if (v !== 'file' && v !== 'url') invalid('type must be file or url.');
  return v as 'file' | 'url';
}

/** A link's data as Magento's API takes it, checked as Magento checks it, as the service's input. */
function linkInput(resource: SoapRecord): DownloadableLinkCreateT {
  const title = resource.get('title');
  if ((typeof title !== 'string' && typeof title !== 'number') || String(title) === '') invalid('no_title');
  if (String(title).length > 255) invalid('The title is longer than 255 characters.');
  const price = legacyDecimal(resource.get('price'));
  if (price === null) invalid('price must be a number.');
  const downloads = legacyInt(resource.get('number_of_downloads'), 0);
  if (Number.isNaN(downloads)) invalid('number_of_downloads must be a whole number of at least 0.');
  const unlimited = legacyFlag(resource.get('is_unlimited'));
  if (unlimited === null) invalid('is_unlimited must be 0 or 1.');
  const shareable = legacyInt(resource.get('is_shareable'), 0, 2);
  if (Number.isNaN(shareable)) invalid('is_shareable must be 0, 1 or 2.');
  const sortOrder = legacyInt(resource.get('sort_order'));
  if (Number.isNaN(sortOrder)) invalid('sort_order must be a whole number.');
  const input: DownloadableLinkCreateT = {
    title: String(title),
    price: price ?? 0,
    numberOfDownloads: unlimited ? 0 : (downloads ?? 0),
    isShareable: (shareable ?? 2) as 0 | 1 | 2,
    sortOrder: sortOrder ?? 0,
  };
  if (uploadTypeOf(resource.get('type'), 'file') === 'file') {
    const file = fileOf(resource.get('file'));
    Object.assign(input, { linkType: 'file', fileBase64: file.content, fileName: file.name });
  } else Object.assign(input, { linkType: 'url', linkUrl: urlOf(resource.get('link_url')) });
  const sample = resource.get('sample');
  if (given(sample) && !isRecord(sample)) invalid('sample must be a struct.');
  const sampleType = isRecord(sample) ? uploadTypeOf(sample.get('type'), undefined) : undefined;
  if (sampleType === 'file') {
    const file = fileOf((sample as SoapRecord).get('file'));
    Object.assign(input, { sampleType, sampleFileBase64: file.content, sampleFileName: file.name });
  } else if (sampleType === 'url') Object.assign(input, { sampleType, sampleUrl: urlOf((sample as SoapRecord).get('url')) });
  return input;
}

/** The downloadable product named (store view first): faults 100, 101 and 408. */
async function productOf(ctx: Ctx, ref: LegacyValue | undefined, store: LegacyValue | undefined, identifierType: LegacyValue | undefined) {
  if (legacyStore(ctx, store) === undefined) throw fault('store_not_exists');
  const p = await legacyProduct(ctx, ref, identifierType);
  if (!p) throw fault('product_not_exists');
  if (p.type !== 'downloadable') throw fault('product_not_downloadable');
  return p;
}

function failed(err: unknown, otherwise: string): never {
  if (!(err instanceof AppError) || err.status >= 500) throw err;
  const field = err.details?.field;
  if (err.reason === 'DOWNLOADABLE_LINK_NOT_FOUND') throw fault('link_was_not_found');
  if (err.reason === 'WRONG_PRODUCT_TYPE') throw fault('product_not_downloadable');
  if (err.status === 404) throw fault(otherwise === 'remove_error' ? 'link_was_not_found' : 'product_not_exists');
  if ((field === 'fileBase64' || field === 'sampleFileBase64') && err.details?.constraint === 'contentEncoding')
    invalid('no_file_base64_content');
  if (err.status === 400) invalid(err.message);
  throw fault(otherwise, err.message);
}

/** Magento's `file_save` of a stored file: its path, name and size, when the file is there. */
async function fileSave(ctx: Ctx, folder: string, file: string | null): Promise<LegacyValue | undefined> {
  const info = file ? await statMediaFile(ctx.app.config, `${folder}${file}`) : undefined;
  if (!file || !info) return undefined;
  return [
    rec([
      ['file', file],
      ['name', file.slice(file.lastIndexOf('/') + 1)],
      ['size', info.size],
      ['status', 'old'],
    ]),
  ];
}

async function linkRecord(ctx: Ctx, l: LegacyDownloadableRow): Promise<LegacyValue> {
  const row: [string, LegacyValue][] = [
    ['link_id', l.id],
    ['title', l.title],
    ['price', dec(l.price).toFixed(4)],
    ['number_of_downloads', l.numberOfDownloads],
    ['is_shareable', l.isShareable],
    ['link_url', l.linkUrl],
    ['link_type', l.linkType],
    ['sample_file', l.sampleFile],
    ['sample_url', l.sampleUrl],
    ['sample_type', l.sampleType],
    ['sort_order', l.sortOrder],
  ];
  const [file, sample] = await Promise.all([
    fileSave(ctx, DOWNLOADABLE_DIR, l.linkFile),
    fileSave(ctx, DOWNLOADABLE_SAMPLES_DIR, l.sampleFile),
  ]);
  if (file) row.push(['file_save', file]);
  if (sample) row.push(['sample_file_save', sample]);
  if (l.numberOfDownloads === 0) row.push(['is_unlimited', 1]);
  return rec(row);
}

export const downloadableLink = defineResource({
  name: 'catalog_product_downloadable_link',
  // Maho's own title for this resource
  title: 'Category API',
  aliases: ['product_downloadable_link'],
  faults: {
    store_not_exists: ['100', 'Store with requested code/id does not exist.'],
    product_not_exists: ['101', 'Product with requested id does not exist.'],
    links_and_samples_allowed: ['401', 'Incorrect resourceType, only "links" and "samples" allowed.'],
    empty_url: ['402', 'URL cannot be empty.'],
    no_filename: ['403', 'Filename was omitted, or contains unallowed characters.'],
    no_file_base64_content: [
      '404',
      'File content should be passed as base64 string. For details, please see http://en.wikipedia.org/wiki/Base64',
    ],
    no_title: ['405', 'Title cannot be empty.'],
    unknown_resource_type: ['406', 'Incorrect content type only "link", "link_samples" and "sample" allowed.'],
    product_not_downloadable: ['408', 'Incorrect product type. Downloadable content, can be added only to "downloadable" products.'],
    incorect_file_extension: ['409', 'Incorrect extension of filename.'],
    file_size_is_to_big: ['410', 'Uploaded file is too big.'],
    tmp_dir_is_not_writeable: ['411', 'Has no permissions for writing to temporary folder.'],
    can_not_create_sub_tmp_folder: ['411', 'Cannot create sub folder in temporary folder.'],
    link_was_not_found: ['412', 'Link or sample with specified ID was not found.'],
    incorrect_resource_type: ['413', 'An allowed resource type values for remove method is: "links" and "samples".'],
    save_error: ['414', 'Unable to save action. Details in error message.'],
    validation_error: ['415', 'Validation error has occurred.'],
    remove_error: ['416', 'Unable to remove link. Details in error message.'],
  },
  methods: {
    add: {
      title: 'Add links and samples to downloadable product',
      permission: ['products', 'write'],
      params: ['productId', 'resource', 'resourceType', 'store', 'identifierType'],
      run: async (ctx, [productId, resource, resourceType, store, identifierType]) => {
        const type = resourceTypeOf(resourceType);
        if (!isRecord(resource)) return invalid(`The ${type} data must be a struct.`);
        const input = type === 'link' ? linkInput(resource) : undefined;
        const p = await productOf(ctx, productId, store, identifierType);
        if (!input) throw fault('save_error', 'Samples are kept with their links here: send a sample as the "sample" of a link.');
        try {
          await createDownloadableLink(ctx, p.id, input);
        } catch (err) {
          return failed(err, 'save_error');
        }
        return true;
      },
    },
    list: {
      title: 'Retrieve links and samples list from downloadable product',
      permission: ['products', 'read'],
      params: ['productId', 'store', 'identifierType'],
      run: async (ctx, [productId, store, identifierType]) => {
        const p = await productOf(ctx, productId, store, identifierType);
        let rows: LegacyDownloadableRow[];
        try {
          rows = await legacyDownloadableRows(ctx, p.id);
        } catch (err) {
          return failed(err, 'save_error');
        }
        return rec([
          ['links', await Promise.all(rows.map((l) => linkRecord(ctx, l)))],
          ['samples', []],
        ]);
      },
    },
    remove: {
      title: 'Remove links and samples from downloadable product',
      permission: ['products', 'write'],
      params: ['linkId', 'resourceType'],
      run: async (ctx, [linkId, resourceType]) => {
        const type = resourceTypeOf(resourceType);
        const id = idArg(linkId);
        const productId = type === 'link' && id !== undefined ? await downloadableLinkProductId(ctx, id) : undefined;
        if (productId === undefined) throw fault('link_was_not_found');
        try {
          await deleteDownloadableLink(ctx, productId, id);
        } catch (err) {
          return failed(err, 'remove_error');
        }
        return true;
      },
    },
  },
});
