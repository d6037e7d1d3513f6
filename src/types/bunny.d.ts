// Types of the npm package `bunny` (the Stanford bunny, public domain), which ships none.
declare module 'bunny' {
  const bunny: {
    /** Vertex positions x, y, z (y up). */
    readonly positions: readonly (readonly [number, number, number])[];
    /** Triangles as three 0-based indices into positions. */
    readonly cells: readonly (readonly [number, number, number])[];
  };
  export default bunny;
}
