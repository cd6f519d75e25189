/**
 * What a stored file is: content types by extension (public images, samples of downloadable products) and
 * content sniffing, which tells images and PDF documents by their first bytes, so that an upload is kept and
 * served as what it is rather than what its name says.
 */

/** Image types by extension: what the public image folders serve. */
export const IMAGE_CONTENT_TYPES: Readonly<Record<string, string>> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  ico: 'image/x-icon',
};

export const OCTET_STREAM = 'application/octet-stream';
export const PDF = 'application/pdf';

/**
 * What a sample of a downloadable product may be served as. Nothing a browser would run (HTML, SVG, XML,
 * scripts): a file of any other kind is stored as `.bin` and served as a download.
 */
export const SAMPLE_CONTENT_TYPES: Readonly<Record<string, string>> = {
  ...IMAGE_CONTENT_TYPES,
  pdf: PDF,
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  ogg: 'audio/ogg',
  wav: 'audio/wav',
  mp4: 'video/mp4',
  webm: 'video/webm',
  zip: 'application/zip',
  epub: 'application/epub+zip',
  txt: 'text/plain; charset=utf-8',
  bin: OCTET_STREAM,
};

/** Documents whose type their content proves, with the extension they are stored under. */
const DOCUMENT_EXTENSIONS: Readonly<Record<string, string>> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/avif': 'avif',
  [PDF]: 'pdf',
};

const ascii = (data: Buffer, start: number, end: number) => data.subarray(start, end).toString('latin1');

/**
 * The content type of a file from its first bytes: JPEG, PNG, GIF, WebP, AVIF images and PDF documents;
 * anything else (HTML, SVG and scripts included) is application/octet-stream. 32 bytes are enough.
 */
export function sniffContentType(data: Buffer): string {
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'image/jpeg';
  if (data.length >= 8 && data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  const head6 = ascii(data, 0, 6);
  if (head6 === 'GIF87a' || head6 === 'GIF89a') return 'image/gif';
  if (data.length >= 12 && ascii(data, 0, 4) === 'RIFF' && ascii(data, 8, 12) === 'WEBP') return 'image/webp';
  if (data.length >= 12 && ascii(data, 4, 8) === 'ftyp') {
    const boxEnd = Math.min(data.length, Math.max(16, data.readUInt32BE(0)));
    const brands = [ascii(data, 8, 12)];
    for (let i = 16; i + 4 <= boxEnd; i += 4) brands.push(ascii(data, i, i + 4));
    if (brands.includes('avif') || brands.includes('avis')) return 'image/avif';
  }
  if (ascii(data, 0, 5) === '%PDF-') return PDF;
  return OCTET_STREAM;
}

/** The extension a file of a sniffed type is stored under: jpg, png, gif, webp, avif, pdf, else bin. */
export function extensionForType(contentType: string): string {
  return DOCUMENT_EXTENSIONS[contentType] ?? 'bin';
}

/**
 * The document type an extension names when its content can be checked (images and PDF: `jpeg` and `jpg`
 * both name image/jpeg); undefined for other extensions.
 */
export function documentTypeOfExtension(ext: string): string | undefined {
  const e = ext.replace(/^\.+/, '').toLowerCase();
  if (e === 'jpeg' || e === 'jpe') return 'image/jpeg';
  return Object.entries(DOCUMENT_EXTENSIONS).find(([, x]) => x === e)?.[0];
}
