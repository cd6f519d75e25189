/** The revocation's event: a contract revocation submitted. */
import { defineEvents } from '../../platform/events.js';
import { RevocationRequest } from './schemas.js';

export const revocationEvents = defineEvents({
  'revocation.submitted': { description: 'A contract revocation was submitted', payload: RevocationRequest },
});
