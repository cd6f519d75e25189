/**
 * A small multipart/form-data reader for POST /media: the body is read from the request stream up to a byte
 * limit (413 past it, before the rest is read), then split into parts by the boundary.
 */
import type { Readable } from 'node:stream';
import { badRequest } from '../../platform/errors.js';

export interface FormPart {
  name: string;
  filename?: string;
  contentType?: string;
  data: Buffer;
}

function malformed(why: string) {
  return badRequest(`Malformed multipart/form-data body: ${why}`, { reason: 'INVALID_MULTIPART' });
}

/** The boundary of a multipart/form-data content type; 400 when there is none. */
export function boundaryOf(contentType: string | undefined): string {
  const m = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? '');
  const b = m?.[1] ?? m?.[2];
  if (!b || b.length > 200) throw malformed('no boundary');
  return b;
}

/** Reads a stream whole; `onTooLarge()` is thrown once more than `maxBytes` arrive. */
export async function readLimited(stream: Readable, maxBytes: number, onTooLarge: () => Error): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
    size += buf.length;
    if (size > maxBytes) {
      stream.resume();
      throw onTooLarge();
    }
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
}

function headerParam(header: string, name: string): string | undefined {
  const m = new RegExp(`(?:^|;)\\s*${name}="([^"]*)"`, 'i').exec(header) ?? new RegExp(`(?:^|;)\\s*${name}=([^;\\s]+)`, 'i').exec(header);
  return m?.[1];
}

/** The parts of a multipart/form-data body. */
export function parseMultipart(body: Buffer, boundary: string): FormPart[] {
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: FormPart[] = [];
  let pos = body.indexOf(delimiter);
  if (pos < 0) throw malformed('no parts');
  for (;;) {
    pos += delimiter.length;
    if (body.subarray(pos, pos + 2).toString('latin1') === '--') return parts;
    if (body.subarray(pos, pos + 2).toString('latin1') !== '\r\n') throw malformed('bad delimiter');
    pos += 2;
    const headerEnd = body.indexOf('\r\n\r\n', pos);
    if (headerEnd < 0) throw malformed('unterminated part headers');
    const headers: Record<string, string> = {};
    for (const line of body.subarray(pos, headerEnd).toString('utf8').split('\r\n')) {
      const colon = line.indexOf(':');
      if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const next = body.indexOf(Buffer.from(`\r\n--${boundary}`), headerEnd + 4);
    if (next < 0) throw malformed('unterminated part');
    const disposition = headers['content-disposition'] ?? '';
    const name = headerParam(disposition, 'name');
    if (!/^form-data/i.test(disposition) || name === undefined) throw malformed('part without a form-data name');
    parts.push({
      name,
      filename: headerParam(disposition, 'filename'),
      contentType: headers['content-type'],
      data: body.subarray(headerEnd + 4, next),
    });
    if (parts.length > 20) throw malformed('too many parts');
    pos = next + 2;
  }
}
