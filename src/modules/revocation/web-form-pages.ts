/**
 * The HTML of the revocation web form (web-form.ts): the form with its errors, the confirmation and message
 * pages, in one layout, every value escaped.
 */
import { REASON_MAX_LENGTH } from './service.js';

export const PATH = '/revocation';
export const ORDER_NUMBER_MAX = 50;
export const EMAIL_MAX = 255;

export function escapeHtml(value: string | number): string {
  return String(value).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

type FieldName = 'orderNumber' | 'email' | 'reason';

const FIELD_IDS: Record<FieldName, string> = { orderNumber: 'order-number', email: 'email', reason: 'reason' };

export interface FormError {
  message: string;
  /** the fields at fault; the summary links to the first. None: a problem with the submission as a whole */
  fields: FieldName[];
}

export interface FormValues {
  orderNumber: string;
  email: string;
  reason: string;
}

export const EMPTY: FormValues = { orderNumber: '', email: '', reason: '' };

/** What every page of a store shows: its language, name and the form's address in that store. */
export interface PageScope {
  lang: string;
  storeName: string;
  /** `?store=<code>` when the caller named the store, so that the form posts to the same store */
  storeQuery: string;
  coolingOffDays: number;
}

function layout(scope: PageScope, title: string, main: string): string {
  const store = scope.storeName ? `<p class="store">${escapeHtml(scope.storeName)}</p>\n` : '';
  const fullTitle = scope.storeName ? `${title} – ${scope.storeName}` : title;
  return `<!DOCTYPE html>
<html lang="${escapeHtml(scope.lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(fullTitle)}</title>
<style>
body{font-family:system-ui,sans-serif;line-height:1.5;margin:0;color:#1b1b1b;background:#fff}
main{max-width:40rem;margin:0 auto;padding:1.5rem}
.store{font-weight:600;margin:0 0 .5rem}
.field{margin:0 0 1.25rem}
label{display:block;font-weight:600}
.hint{margin:.1rem 0 .3rem;color:#505a5f}
input,textarea{box-sizing:border-box;width:100%;font:inherit;padding:.4rem;border:2px solid #0b0c0c}
textarea{min-height:8rem}
[aria-invalid="true"]{border-color:#d4351c}
.field-error{color:#d4351c;font-weight:600;margin:.1rem 0}
.error-summary{border:4px solid #d4351c;padding:1rem;margin:0 0 1.5rem}
.error-summary h2{margin-top:0;font-size:1.2rem}
.error-summary a{color:#d4351c}
button{font:inherit;font-weight:600;padding:.5rem 1.25rem;background:#00703c;color:#fff;border:0;cursor:pointer}
:focus-visible{outline:3px solid #fd0;outline-offset:0}
dt{font-weight:600}
dd{margin:0 0 .75rem}
</style>
</head>
<body>
<main>
${store}${main}
</main>
</body>
</html>
`;
}

function errorSummary(errors: FormError[]): string {
  if (!errors.length) return '';
  const items = errors
    .map((e) =>
      e.fields.length ? `<li><a href="#${FIELD_IDS[e.fields[0]]}">${escapeHtml(e.message)}</a></li>` : `<li>${escapeHtml(e.message)}</li>`,
    )
    .join('\n');
  return `<div class="error-summary" role="alert" aria-labelledby="error-summary-title" tabindex="-1">
<h2 id="error-summary-title">There is a problem</h2>
<ul>
${items}
</ul>
</div>
`;
}

interface FieldSpec {
  name: FieldName;
  label: string;
  hint?: string;
  required: boolean;
  control: (attrs: string) => string;
}

function field(spec: FieldSpec, errors: FormError[]): string {
  const id = FIELD_IDS[spec.name];
  const own = errors.filter((e) => e.fields.includes(spec.name));
  const described = [spec.hint ? `${id}-hint` : '', own.length ? `${id}-error` : ''].filter(Boolean).join(' ');
  const attrs = [
    `id="${id}"`,
    `name="${spec.name}"`,
    spec.required ? 'required aria-required="true"' : '',
    own.length ? 'aria-invalid="true"' : '',
    described ? `aria-describedby="${described}"` : '',
  ]
    .filter(Boolean)
    .join(' ');
  const label = `<label for="${id}">${escapeHtml(spec.label)}${spec.required ? '' : ' (optional)'}</label>`;
  const hint = spec.hint ? `\n<p class="hint" id="${id}-hint">${escapeHtml(spec.hint)}</p>` : '';
  const error = own.length ? `\n<p class="field-error" id="${id}-error">Error: ${own.map((e) => escapeHtml(e.message)).join(' ')}</p>` : '';
  return `<div class="field">
${label}${hint}${error}
${spec.control(attrs)}
</div>`;
}

export function formPage(scope: PageScope, values: FormValues, csrf: string, errors: FormError[] = []): string {
  const period =
    scope.coolingOffDays > 0
      ? `<p>You can withdraw within ${escapeHtml(scope.coolingOffDays)} days. The period starts when you placed the order or, if it was shipped, when it was last shipped to you.</p>\n`
      : '';
  const main = `<h1>Withdraw from your order</h1>
<p>You have the right to withdraw from a purchase without giving a reason. Tell us the order number and the email
address you used for the order; we record your declaration and send you a receipt by email.</p>
${period}${errorSummary(errors)}<form method="post" action="${escapeHtml(PATH + scope.storeQuery)}">
<input type="hidden" name="_csrf" value="${escapeHtml(csrf)}">
${field(
  {
    name: 'orderNumber',
    label: 'Order number',
    hint: 'As shown in your order confirmation, for example 100000001.',
    required: true,
    control: (a) =>
      `<input ${a} type="text" autocomplete="off" spellcheck="false" maxlength="${ORDER_NUMBER_MAX}" value="${escapeHtml(values.orderNumber)}">`,
  },
  errors,
)}
${field(
  {
    name: 'email',
    label: 'Email address',
    hint: 'The email address you used for the order.',
    required: true,
    control: (a) =>
      `<input ${a} type="email" autocomplete="email" spellcheck="false" maxlength="${EMAIL_MAX}" value="${escapeHtml(values.email)}">`,
  },
  errors,
)}
${field(
  {
    name: 'reason',
    label: 'Reason',
    hint: 'You do not have to give a reason.',
    required: false,
    control: (a) => `<textarea ${a} maxlength="${REASON_MAX_LENGTH}" rows="6">${escapeHtml(values.reason)}</textarea>`,
  },
  errors,
)}
<button type="submit">Send revocation</button>
</form>`;
  return layout(scope, 'Withdraw from your order', main);
}

export function messagePage(scope: PageScope, title: string, message: string): string {
  return layout(scope, title, `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(message)}</p>`);
}

export interface Receipt {
  id: number;
  orderReference: string;
  receivedAt: string;
  /** the receipt mail was not sent again: the address had one today */
  suppressed: boolean;
}

export function receivedPage(scope: PageScope, r: Receipt): string {
  const mail = r.suppressed
    ? 'We already sent a receipt to your email address today, so no further receipt is sent for this declaration.'
    : 'A receipt has been sent to your email address.';
  const main = `<h1>Your revocation has been received</h1>
<p>We have recorded your declaration. ${escapeHtml(mail)} Please keep the reference for your records.</p>
<dl>
<dt>Reference</dt>
<dd>${escapeHtml(r.id)}</dd>
<dt>Order number</dt>
<dd>${escapeHtml(r.orderReference)}</dd>
<dt>Submitted</dt>
<dd>${escapeHtml(r.receivedAt)} UTC</dd>
</dl>`;
  return layout(scope, 'Your revocation has been received', main);
}
