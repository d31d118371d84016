// An error in what the user asked for (a path that does not exist, an unknown environment, conflicting options):
// the CLI prints its message and exits with 2, without a stack trace. Any stage may throw it.
export class UsageError extends Error {}
