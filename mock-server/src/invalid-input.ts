/** A runtime change (new comment, outage mode) that cannot be applied; the message says how to fix it. */
export class InvalidInputError extends Error {}
