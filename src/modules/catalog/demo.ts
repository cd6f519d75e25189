/**
 * Demo catalog: a small clothing-and-home store with a category tree and about thirty products of every type,
 * with generated images, stock, options, tier prices and links, written through the same services as the API.
 */
import { loadSharp } from '../../platform/images.js';
import type { Ctx } from '../../platform/context.js';
import { getProductAttributeByCode } from './attributes/service.js';
import { createBundleOption } from './product-types/bundle-service.js';
import { createCategory } from './categories/service.js';
import { setConfigurable } from './product-types/configurable-service.js';
import { createCustomOption } from './product-extras/custom-options-write.js';
import { createDownloadableLink } from './product-types/downloadable-service.js';
import { replaceGroupedChildren } from './product-types/grouped-service.js';
import { replaceProductLinks } from './product-extras/links-service.js';
import { addProductMedia } from './product-extras/media-service.js';
import { createProduct } from './products/write.js';
import type { ProductWriteBody } from './products/write-schemas.js';
import { replaceTierPrices } from './product-extras/tier-prices-service.js';

const TAXABLE_GOODS = 2;

/** A square product picture: a coloured background with the product's name. */
async function picture(label: string, background: string): Promise<string> {
  const words = label.replace(/[<>&"']/g, '').split(' ');
  const lines: string[] = [];
  for (const w of words) {
    const last = lines[lines.length - 1];
    if (last !== undefined && (last + ' ' + w).length <= 14) lines[lines.length - 1] = `${last} ${w}`;
    else lines.push(w);
  }
  const text = lines
    .map(
      (l, i) =>
        `<text x="300" y="${300 + (i - (lines.length - 1) / 2) * 56}" font-size="48" font-family="sans-serif" fill="#ffffff" text-anchor="middle" dominant-baseline="middle">${l}</text>`,
    )
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="600"><rect width="600" height="600" fill="${background}"/>${text}</svg>`;
  const png = await (await loadSharp())(Buffer.from(svg)).png().toBuffer();
  return png.toString('base64');
}

const PALETTE: Record<string, string> = {
  Black: '#222222',
  White: '#b8b8b8',
  Red: '#b3261e',
  Blue: '#1f4e99',
  Green: '#2e7d32',
  Grey: '#616161',
  Beige: '#a1887f',
};

export async function seedCatalogDemo(systemCtx: Ctx): Promise<void> {
  // the seed acts as a back-office user, so that it reads back what shoppers cannot see (configurable children)
  const ctx: Ctx = {
    ...systemCtx,
    actor: { kind: 'admin', principal: 'api_user', id: 0, username: 'demo-seed', permissions: ['all'], jti: 'demo-seed', exp: 0 },
  };
  const optionId = async (code: string) => {
    const attr = await getProductAttributeByCode(ctx, code);
    const byLabel = new Map((attr.options ?? []).map((o) => [o.label, Number(o.value)]));
    return (label: string) => {
      const id = byLabel.get(label);
      if (id === undefined) throw new Error(`The ${code} attribute has no option ${label}`);
      return id;
    };
  };
  const color = await optionId('color');
  const size = await optionId('size');
  const material = await optionId('material');

  const category = async (name: string, parentId?: number, extra: Record<string, unknown> = {}) =>
    (await createCategory(ctx, { name, parentId, ...extra })).id as number;
  const women = await category('Women');
  const dresses = await category('Dresses', women);
  const womenTops = await category('Tops', women);
  const men = await category('Men');
  const shirts = await category('Shirts', men);
  const trousers = await category('Trousers', men);
  const accessories = await category('Accessories');
  const bags = await category('Bags', accessories);
  const home = await category('Home & Living');
  const kitchen = await category('Kitchen', home);
  const books = await category('Books & Downloads');
  const sale = await category('Sale', undefined, { includeInMenu: false });

  const product = async (body: ProductWriteBody, image?: { background: string }) => {
    const p = await createProduct(ctx, { taxClassId: TAXABLE_GOODS, ...body });
    if (image) {
      await addProductMedia(ctx, p.id, {
        base64: await picture(String(body.name), image.background),
        filename: `${p.urlKey ?? p.sku}.png`,
        label: String(body.name),
        types: ['image', 'small_image', 'thumbnail'],
      });
    }
    return p.id as number;
  };
  const stock = (qty: number) => ({ qty, isInStock: qty > 0, manageStock: true });

  // ---- configurable tee: 3 colours × 3 sizes ----
  const teeChildren: number[] = [];
  for (const c of ['Black', 'White', 'Blue']) {
    for (const s of ['S', 'M', 'L']) {
      teeChildren.push(
        await product({
          sku: `TEE-${c.toUpperCase()}-${s}`,
          name: `Classic Tee ${c} ${s}`,
          price: 19.9,
          weight: 0.2,
          visibility: 'not_visible',
          stockData: stock(c === 'White' && s === 'L' ? 0 : 25),
          customAttributesWrite: { color: color(c), size: size(s), material: [material('Cotton')] },
        }),
      );
    }
  }
  const tee = await product(
    {
      sku: 'TEE',
      name: 'Classic Tee',
      type: 'configurable',
      price: 19.9,
      description: 'A crew-neck tee in heavy organic cotton that keeps its shape wash after wash.',
      shortDescription: 'Organic cotton crew-neck tee.',
      categoryIds: [womenTops, shirts],
      customAttributesWrite: { material: [material('Cotton')] },
    },
    { background: PALETTE.Blue },
  );
  await setConfigurable(ctx, tee, { superAttributes: ['color', 'size'], childProductIds: teeChildren });

  // ---- configurable dress: 2 colours × 3 sizes ----
  const dressChildren: number[] = [];
  for (const c of ['Red', 'Green']) {
    for (const s of ['S', 'M', 'L']) {
      dressChildren.push(
        await product({
          sku: `DRESS-SUMMER-${c.toUpperCase()}-${s}`,
          name: `Summer Dress ${c} ${s}`,
          price: 79,
          specialPrice: c === 'Green' ? 59 : undefined,
          weight: 0.4,
          visibility: 'not_visible',
          stockData: stock(8),
          customAttributesWrite: { color: color(c), size: size(s), material: [material('Linen')] },
        }),
      );
    }
  }
  const dress = await product(
    {
      sku: 'DRESS-SUMMER',
      name: 'Summer Dress',
      type: 'configurable',
      price: 79,
      description: 'A light linen dress with a fitted waist and a flowing skirt.',
      shortDescription: 'Linen midi dress.',
      categoryIds: [dresses, sale],
    },
    { background: PALETTE.Red },
  );
  await setConfigurable(ctx, dress, { superAttributes: ['color', 'size'], childProductIds: dressChildren });

  // ---- simple products ----
  const simple = async (
    sku: string,
    name: string,
    price: number,
    categoryIds: number[],
    background: string,
    extra: ProductWriteBody = {},
  ) =>
    product({ sku, name, price, weight: 0.5, categoryIds, stockData: stock(50), shortDescription: `${name}.`, ...extra }, { background });
  const wool = await simple('SWEATER-WOOL', 'Merino Sweater', 89, [womenTops], PALETTE.Grey, {
    customAttributesWrite: { color: color('Grey'), material: [material('Wool')] },
  });
  const chinos = await simple('CHINOS-BEIGE', 'Slim Chinos', 69, [trousers], PALETTE.Beige, {
    customAttributesWrite: { color: color('Beige'), material: [material('Cotton')] },
  });
  const oxford = await simple('SHIRT-OXFORD', 'Oxford Shirt', 49, [shirts, sale], PALETTE.White, {
    specialPrice: 39,
    customAttributesWrite: { color: color('White'), material: [material('Cotton')] },
  });
  const tote = await simple('BAG-TOTE', 'Canvas Tote', 25, [bags], PALETTE.Green, {
    customAttributesWrite: { color: color('Green'), material: [material('Cotton')] },
  });
  const backpack = await simple('BAG-BACKPACK', 'Leather Backpack', 149, [bags], PALETTE.Black, {
    customAttributesWrite: { color: color('Black'), material: [material('Leather')] },
  });
  const scarf = await simple('SCARF-SILK', 'Silk Scarf', 45, [accessories], PALETTE.Red, {
    customAttributesWrite: { color: color('Red'), material: [material('Silk')] },
  });
  const wallet = await simple('WALLET-LEATHER', 'Leather Wallet', 39, [accessories], PALETTE.Black, {
    customAttributesWrite: { color: color('Black'), material: [material('Leather')] },
  });
  await simple('SHIRT-LINEN', 'Linen Shirt', 59, [shirts], PALETTE.Blue, {
    customAttributesWrite: { color: color('Blue'), material: [material('Linen')] },
  });
  await simple('JEANS-DENIM', 'Straight Jeans', 79, [trousers], PALETTE.Blue, {
    customAttributesWrite: { color: color('Blue'), material: [material('Cotton')] },
  });
  await simple('BEANIE-WOOL', 'Wool Beanie', 24, [accessories, sale], PALETTE.Grey, {
    specialPrice: 19,
    customAttributesWrite: { color: color('Grey'), material: [material('Wool')] },
  });
  const mug = await simple('MUG-STONEWARE', 'Stoneware Mug', 12, [kitchen], PALETTE.Blue);
  const plate = await simple('PLATE-STONEWARE', 'Stoneware Plate', 16, [kitchen], PALETTE.Beige);
  const bowl = await simple('BOWL-STONEWARE', 'Stoneware Bowl', 14, [kitchen], PALETTE.Green);
  const candle = await simple('CANDLE-CEDAR', 'Cedar Candle', 22, [home], PALETTE.Grey);
  const blanket = await simple('BLANKET-WOOL', 'Wool Throw Blanket', 99, [home], PALETTE.Beige, {
    customAttributesWrite: { material: [material('Wool')] },
  });

  // engraving and gift box on the wallet; bulk prices on mugs
  await createCustomOption(ctx, wallet, {
    title: 'Engraving',
    type: 'field',
    required: false,
    price: 5,
    priceType: 'fixed',
    maxCharacters: 20,
  });
  await createCustomOption(ctx, wallet, {
    title: 'Gift box',
    type: 'drop_down',
    required: true,
    values: [
      { title: 'No box', price: 0, priceType: 'fixed', sortOrder: 1 },
      { title: 'Gift box', price: 4, priceType: 'fixed', sortOrder: 2 },
    ],
  });
  await replaceTierPrices(ctx, mug, [
    { customerGroupId: 'all', websiteId: 0, qty: 4, price: 10 },
    { customerGroupId: 'all', websiteId: 0, qty: 8, price: 9 },
  ]);

  // ---- grouped: a dinnerware set of the stoneware pieces ----
  const dinner = await product(
    { sku: 'SET-DINNER', name: 'Stoneware Dinner Set', type: 'grouped', categoryIds: [kitchen], shortDescription: 'Mug, plate and bowl.' },
    { background: PALETTE.Blue },
  );
  await replaceGroupedChildren(ctx, dinner, [
    { childProductId: plate, qty: 4, position: 1 },
    { childProductId: bowl, qty: 4, position: 2 },
    { childProductId: mug, qty: 4, position: 3 },
  ]);

  // ---- bundle: a travel kit ----
  const kit = await product(
    { sku: 'KIT-TRAVEL', name: 'Travel Kit', type: 'bundle', categoryIds: [bags], shortDescription: 'Pick a bag and a scarf.' },
    { background: PALETTE.Green },
  );
  await createBundleOption(ctx, kit, {
    title: 'Bag',
    type: 'radio',
    required: true,
    position: 1,
    selections: [
      { productId: tote, qty: 1, isDefault: true, position: 1 },
      { productId: backpack, qty: 1, position: 2 },
    ],
  });
  await createBundleOption(ctx, kit, {
    title: 'Extras',
    type: 'checkbox',
    required: false,
    position: 2,
    selections: [
      { productId: scarf, qty: 1, position: 1 },
      { productId: wallet, qty: 1, position: 2 },
    ],
  });

  // ---- virtual and downloadable ----
  await product(
    {
      sku: 'SERVICE-GIFTWRAP',
      name: 'Gift Wrapping',
      type: 'virtual',
      price: 6,
      categoryIds: [accessories],
      stockData: { qty: 0, manageStock: false, isInStock: true },
    },
    { background: PALETTE.Red },
  );
  await product(
    {
      sku: 'SERVICE-TAILORING',
      name: 'Trouser Hemming',
      type: 'virtual',
      price: 15,
      categoryIds: [trousers],
      stockData: { qty: 0, manageStock: false, isInStock: true },
    },
    { background: PALETTE.Grey },
  );
  const ebook = await product(
    {
      sku: 'EBOOK-CARE',
      name: 'The Garment Care Handbook',
      type: 'downloadable',
      price: 9,
      categoryIds: [books],
      stockData: { qty: 0, manageStock: false, isInStock: true },
    },
    { background: PALETTE.Black },
  );
  await createDownloadableLink(ctx, ebook, {
    title: 'PDF edition',
    price: 0,
    numberOfDownloads: 5,
    linkType: 'url',
    linkUrl: 'https://downloads.example.com/garment-care.pdf',
    sampleType: 'url',
    sampleUrl: 'https://downloads.example.com/garment-care-sample.pdf',
  });
  await createDownloadableLink(ctx, ebook, {
    title: 'EPUB edition',
    price: 2,
    numberOfDownloads: 5,
    linkType: 'url',
    linkUrl: 'https://downloads.example.com/garment-care.epub',
  });

  // a disabled product, to show it stays out of the storefront
  await product({
    sku: 'SHIRT-FLANNEL',
    name: 'Flannel Shirt',
    price: 59,
    status: 'disabled',
    categoryIds: [shirts],
    stockData: stock(10),
  });

  await replaceProductLinks(ctx, tee, 'related', [
    { linkedProductId: chinos, position: 1 },
    { linkedProductId: oxford, position: 2 },
  ]);
  await replaceProductLinks(ctx, tee, 'up-sell', [{ linkedProductId: wool, position: 1 }]);
  await replaceProductLinks(ctx, dress, 'cross-sell', [
    { linkedProductId: scarf, position: 1 },
    { linkedProductId: tote, position: 2 },
  ]);
  await replaceProductLinks(ctx, mug, 'related', [
    { linkedProductId: candle, position: 1 },
    { linkedProductId: blanket, position: 2 },
  ]);
}
