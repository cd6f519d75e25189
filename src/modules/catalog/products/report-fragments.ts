/**
 * What the reports of later modules (low stock, abandoned carts) show of a product, as scalar subqueries for
 * their one-statement reads: its default name, and the price a shopper pays before options (its final price,
 * the lowest of its children for a configurable).
 */
import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { products } from '../tables.js';

/** The default name of the product `productId` (an int expression); null for no such product. */
export function productNameSql(productId: SQL | AnyColumn): SQL {
  return sql`(SELECT ${products.name} FROM ${products} WHERE ${products.id} = ${productId})`;
}

/** The base-currency price before options of the product `productId`; null for no such product. */
export function productPriceSql(productId: SQL | AnyColumn): SQL {
  return sql`(SELECT ${products.minPrice} FROM ${products} WHERE ${products.id} = ${productId})`;
}

/**
 * Every product's base-currency price before options, as a relation (`id`, `price`) a report joins once, instead
 * of a scalar subquery per row: for a report over thousands of lines the planner then reads prices by hash or
 * index as it sees fit, and its cost stays that of a join.
 */
export function productPricesSql(): SQL {
  return sql`(SELECT ${products.id} AS id, ${products.minPrice} AS price FROM ${products})`;
}
