/** Process exit codes: 0 ok, 1 the work ran but failed (or a patch is invalid), 2 usage or config error. */
export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;
