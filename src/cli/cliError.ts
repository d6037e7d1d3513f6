// A user-facing command-line error: printed without a stack trace, exit status 2 (usage) or 1 (failure).
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2 = 2,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** Exit status of `rtgpu run` and `rtgpu render` when every output was written but some pixels' threads faulted. */
export const FAULT_EXIT_STATUS = 3;
