/**
 * Content HTML between the API and the visual editor. Images of the media library are stored as Maho writes
 * them, `src="{{media url="wysiwyg/…"}}"` (the storefront renders the directive to the store's media address);
 * the editor shows them from this server's /media/ path, and saving writes the directive again.
 */

// also the form Maho writes, src="{{media url="x"}}" (quotes inside quotes, which an HTML parser would cut short)
const MEDIA_SRC = /src\s*=\s*(["'])\{\{\s*media\s+url\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'}]+))\s*\}\}\1/gi;
const LOCAL_MEDIA_SRC = /src="\/media\/([^"?#]+)"/g;

/** The stored content as the editor shows it: media directives in image sources become /media/ paths. */
export function toEditorHtml(stored: string): string {
  return stored.replace(MEDIA_SRC, (_m, _q, a?: string, b?: string, c?: string) => `src="/media/${clean(a ?? b ?? c ?? '')}"`);
}

/**
 * The editor's HTML as stored: images from /media/ get their directive back, and the empty paragraphs the editor
 * keeps at the end (so the cursor can always go below the last block) are left out.
 */
export function fromEditorHtml(html: string): string {
  return html.replace(LOCAL_MEDIA_SRC, (_m, path: string) => `src="{{media url="${path}"}}"`).replace(/(?:<p><\/p>)+$/, '');
}

function clean(path: string): string {
  return path.replace(/^\/+/, '').replace(/^media\//, '');
}

/** The path an image of the media library is shown from here. */
export const mediaSrc = (path: string): string => `/media/${clean(path)}`;

/**
 * Whether the visual editor would keep the markup: it keeps text, headings, lists, quotes, links and images, and
 * drops other elements and attributes (classes, styles, tables, widgets). Content it would change is edited as HTML.
 */
export function survives(original: string, roundTrip: string): boolean {
  const parse = (h: string) => new DOMParser().parseFromString(`<body>${h}</body>`, 'text/html').body;
  const a = parse(original);
  const b = parse(roundTrip);
  const text = (e: HTMLElement) => (e.textContent ?? '').replace(/\s+/g, ' ').trim();
  const attrs = (e: HTMLElement) => [...e.querySelectorAll('*')].reduce((n, el) => n + el.attributes.length, 0);
  const elements = (e: HTMLElement) => e.querySelectorAll('*:not(p):not(br)').length;
  return text(a) === text(b) && attrs(b) >= attrs(a) && elements(b) >= elements(a);
}
