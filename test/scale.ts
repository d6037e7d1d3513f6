// How large a long check runs: its full size in the soak (RTGPU_SOAK=1, `npm run soak -- --only full-size`), a smaller one in CI.
// CI must stay under 25 minutes on two cores; the smaller size still reaches every case the test names.

/** True in the soak's runs of the test files (RTGPU_SOAK=1). */
export const SOAK = process.env.RTGPU_SOAK === '1';

/** `ci` in CI and `npm test`, `soak` when the soak runs the file. */
export function ciOrSoak<T>(ci: T, soak: T): T {
  return SOAK ? soak : ci;
}
