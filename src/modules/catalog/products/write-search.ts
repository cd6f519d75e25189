/**
 * The text a product is found by (products.search_text, indexed as a tsvector): its sku, its names and
 * descriptions in the default and every store view, and the values of its searchable attributes (option
 * labels for select and multiselect attributes, in every store view).
 */
import { and, eq, inArray } from 'drizzle-orm';
import type { Ctx } from '../../../platform/context.js';
import { attributeOptions, productAttributes, type StoreValues } from '../tables.js';

export interface SearchSource {
  sku: string;
  name: string;
  description?: string | null;
  shortDescription?: string | null;
  storeValues?: StoreValues | null;
  attributes?: Record<string, unknown> | null;
}

const TEXT_FIELDS = ['name', 'shortDescription', 'description'] as const;

/** Markup and entities become spaces; runs of white space one space. */
function plain(text: string): string {
  return text
    .replace(/<[^>]*>/g, ' ')
    .replace(/&[a-z#0-9]+;/gi, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function optionIds(value: unknown): number[] {
  const list = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [value];
  return list.map((v) => Number(v)).filter((n) => Number.isInteger(n) && n > 0);
}

export async function buildSearchText(ctx: Ctx, p: SearchSource): Promise<string> {
  const parts: string[] = [p.sku, p.name, p.shortDescription ?? '', p.description ?? ''];
  for (const own of Object.values(p.storeValues ?? {})) {
    for (const k of TEXT_FIELDS) {
      const v = own?.[k];
      if (typeof v === 'string') parts.push(v);
    }
  }
  const attrs = p.attributes ?? {};
  const codes = Object.keys(attrs);
  if (codes.length) {
    const searchable = await ctx.db
      .select({ id: productAttributes.id, code: productAttributes.code, input: productAttributes.frontendInput })
      .from(productAttributes)
      .where(and(inArray(productAttributes.code, codes), eq(productAttributes.isSearchable, true)));
    const wanted: number[] = [];
    for (const a of searchable) {
      const value = attrs[a.code];
      if (a.input === 'select' || a.input === 'multiselect') wanted.push(...optionIds(value));
      else if (a.input === 'text' || a.input === 'textarea') {
        if (typeof value === 'string' || typeof value === 'number') parts.push(String(value));
      }
    }
    const attrIds = searchable.filter((a) => a.input === 'select' || a.input === 'multiselect').map((a) => a.id);
    if (wanted.length && attrIds.length) {
      const opts = await ctx.db
        .select({ label: attributeOptions.label, storeLabels: attributeOptions.storeLabels })
        .from(attributeOptions)
        .where(and(inArray(attributeOptions.id, [...new Set(wanted)]), inArray(attributeOptions.attributeId, attrIds)));
      for (const o of opts) {
        parts.push(o.label);
        for (const l of Object.values(o.storeLabels ?? {})) if (typeof l === 'string') parts.push(l);
      }
    }
  }
  const seen = new Set<string>();
  const out: string[] = [];
  for (const part of parts) {
    const text = plain(part);
    if (text && !seen.has(text)) {
      seen.add(text);
      out.push(text);
    }
  }
  return out.join(' ');
}
