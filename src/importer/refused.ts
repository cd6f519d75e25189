/** A refusal the operator can act on (bad source, target not fresh): no stack trace. */
export class ImportRefused extends Error {}
