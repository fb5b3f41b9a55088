/** A mistake in how a command was called (its arguments or environment): exit 2, nothing sent. */
export class UsageError extends Error {}

/** Something on this machine went wrong (a file to read or write): exit 2, said as it is, not as a connection failure. */
export class LocalError extends Error {}
