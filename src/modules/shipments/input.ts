/** Checks and defaults of what clients send about shipments: tracking numbers and comments. */
import { AppError, badRequest } from '../../platform/errors.js';
import { COMMENT_MAX, TEXT_MAX, type ShipmentCommentInput } from './schemas.js';

export function invalid(field: string, message: string, constraint: string): AppError {
  return badRequest(message, { reason: 'VALIDATION_FAILED', details: { field, constraint } });
}

/** A tracking number as given by REST or GraphQL (GraphQL sends null for what it leaves out). */
export interface TrackInput {
  carrierCode?: string | null;
  title?: string | null;
  trackNumber: string;
}

/** A tracking number ready to store. */
export interface NewTrack {
  carrierCode: string;
  title: string;
  trackNumber: string;
}

/**
 * Checks a tracking number and fills in the defaults: the carrier code `custom`, the title the carrier
 * code. The track number must not be blank; every text at most 255 characters.
 */
export function normalizeTrack(input: TrackInput, field = ''): NewTrack {
  const at = (k: string) => (field ? `${field}.${k}` : k);
  const text = (v: unknown, k: string): string | undefined => {
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'string') throw invalid(at(k), `${at(k)} must be a string`, 'type');
    const s = v.trim();
    if (s.length > TEXT_MAX) throw invalid(at(k), `${at(k)} must have at most ${TEXT_MAX} characters`, 'maxLength');
    return s || undefined;
  };
  const trackNumber = text(input.trackNumber, 'trackNumber');
  if (!trackNumber) throw invalid(at('trackNumber'), `${at('trackNumber')} is required`, 'required');
  const carrierCode = text(input.carrierCode, 'carrierCode') ?? 'custom';
  const title = text(input.title, 'title') ?? carrierCode;
  return { carrierCode, title, trackNumber };
}

/** The comment text of a comment body (`comment`, or its alias `note`): required, not blank. */
export function commentText(input: ShipmentCommentInput): string {
  const raw = input.comment ?? input.note;
  const text = typeof raw === 'string' ? raw.trim() : '';
  if (!text) throw invalid('comment', 'comment is required', 'required');
  if (text.length > COMMENT_MAX) throw invalid('comment', `comment must have at most ${COMMENT_MAX} characters`, 'maxLength');
  return text;
}
