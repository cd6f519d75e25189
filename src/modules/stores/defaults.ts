import { declareDefaults } from '../../platform/settings.js';

declareDefaults({
  'general/locale/code': 'en_US',
  'general/locale/timezone': 'UTC',
  'general/locale/weight_unit': 'lbs',
  'general/store_information/name': '',
  'currency/options/base': 'USD',
  'currency/options/default': 'USD',
  'currency/options/allow': 'USD',
  'design/header/logo_src': '',
  'design/header/logo_alt': '',
  'design/head/default_title': '',
  'design/head/default_description': '',
  'web/default/cms_home_page': 'home',
  'checkout/options/guest_checkout': true,
  'newsletter/general/active': true,
  'wishlist/general/active': true,
  'catalog/review/active': true,
});
