/** What the marketing screens share: the discount types, gift card states and dates as the API writes them. */
import { formatDate } from '../../i18n';
import '../customers/customers.css';

export const DISCOUNT_TYPES = ['percent', 'fixed', 'cart_fixed', 'buy_x_get_y'] as const;
export type DiscountType = (typeof DISCOUNT_TYPES)[number];

export const GIFTCARD_STATUSES = ['active', 'used', 'expired', 'disabled'] as const;
export const SUBSCRIBER_STATUSES = ['subscribed', 'not_active', 'unsubscribed', 'unconfirmed'] as const;

/** A `YYYY-MM-DD` day in the user's language (read as UTC, so it stays the same day everywhere). */
export function formatDay(day: string | undefined): string {
  if (!day) return '';
  return formatDate(`${day.slice(0, 10)}T12:00:00Z`, false);
}
