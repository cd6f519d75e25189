import { pgTable, serial, text } from 'drizzle-orm/pg-core';

export const taxClasses = pgTable('tax_classes', {
  id: serial('id').primaryKey(),
  className: text('class_name').notNull(),
  /** PRODUCT or CUSTOMER */
  classType: text('class_type').notNull(),
});
