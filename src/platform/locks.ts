/**
 * Keys of the PostgreSQL advisory locks the application takes, in one place so that no two uses share one by
 * accident. Each serialises one kind of write whose uniqueness rule a constraint cannot express.
 */
export const LOCKS = {
  /** migrations, one process at a time */
  migrate: 7343001,
  /** module install steps, one process at a time */
  install: 7343002,
  /** customer group codes */
  customerGroupCode: 7343020,
  /** the category tree (moves and path rewrites) */
  categoryTree: 7343040,
  /** tax class, rate and rule codes */
  taxCode: 7343050,
  /** CMS page identifiers per store view */
  cmsPageIdentifier: 7343101,
  /** CMS block identifiers per store view */
  cmsBlockIdentifier: 7343102,
  /** blog post url keys per store view */
  blogPostUrlKey: 7343201,
  /** blog category url keys per store view */
  blogCategoryUrlKey: 7343202,
  /** the revocation receipt of one address a day (two-key form: this key and a hash of address and day) */
  revocationReceipt: 7343300,
} as const;
