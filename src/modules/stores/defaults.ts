import { declareConfig, declareConfigLabels } from '../../platform/settings.js';

const CURRENCY = /^[A-Z]{3}$/;

/** Every IANA time zone the runtime knows (the list Maho's admin offers comes from the same database). */
const TIMEZONES = [...new Set(['UTC', ...Intl.supportedValuesOf('timeZone')])];

declareConfigLabels({
  general: 'General',
  'general/locale': 'Locale Options',
  'general/store_information': 'Store Information',
  'general/country': 'Countries Options',
  'general/region': 'States Options',
  currency: 'Currency Setup',
  'currency/options': 'Currency Options',
  design: 'Design',
  'design/header': 'Header',
  'design/head': 'HTML Head',
  web: 'Web',
  'web/default': 'Default Pages',
  'web/unsecure': 'Base URLs',
  'checkout/options': 'Checkout Options',
  newsletter: 'Newsletter',
  'newsletter/general': 'General Options',
  wishlist: 'Wishlist',
  'wishlist/general': 'General Options',
  catalog: 'Catalog',
  'catalog/review': 'Product Reviews',
});

declareConfig({
  'general/locale/code': {
    type: 'string',
    default: 'en_US',
    label: 'Locale',
    comment: 'language_COUNTRY, as en_US',
    pattern: /^[a-z]{2,3}_[A-Z]{2}$/,
  },
  'general/locale/timezone': { type: 'select', default: 'UTC', label: 'Timezone', options: TIMEZONES },
  'general/locale/weight_unit': {
    type: 'select',
    default: 'lbs',
    label: 'Weight Unit',
    options: [
      { value: 'lbs', label: 'lbs' },
      { value: 'kgs', label: 'kgs' },
    ],
  },
  'general/store_information/name': { type: 'string', default: '', label: 'Store Name' },
  'currency/options/base': {
    type: 'string',
    default: 'USD',
    label: 'Base Currency',
    comment: 'an ISO 4217 code; set per website at most',
    pattern: CURRENCY,
    scopes: ['default', 'websites'],
  },
  'currency/options/default': { type: 'string', default: 'USD', label: 'Default Display Currency', pattern: CURRENCY },
  'currency/options/allow': { type: 'multiselect', default: 'USD', label: 'Allowed Currencies', pattern: CURRENCY },
  'design/header/logo_src': { type: 'string', default: '', label: 'Logo Image Src' },
  'design/header/logo_alt': { type: 'string', default: '', label: 'Logo Image Alt' },
  'design/head/default_title': { type: 'string', default: '', label: 'Default Title' },
  'design/head/default_description': { type: 'text', default: '', label: 'Default Description' },
  'web/default/cms_home_page': { type: 'string', default: 'home', label: 'CMS Home Page', comment: 'a CMS page identifier' },
  'web/unsecure/base_url': { type: 'url', default: '', label: 'Base URL', comment: 'empty: the service public URL' },
  'web/unsecure/base_media_url': { type: 'url', default: '', label: 'Base Media URL', comment: 'empty: the base URL followed by media/' },
  'checkout/options/guest_checkout': { type: 'boolean', default: true, label: 'Allow Guest Checkout' },
  'newsletter/general/active': { type: 'boolean', default: true, label: 'Enabled' },
  'wishlist/general/active': { type: 'boolean', default: true, label: 'Enabled' },
  'catalog/review/active': { type: 'boolean', default: true, label: 'Enabled' },
});
