// Seeded random stimulus for tests, soaks and fuzzing (not part of the package): random RT core programs with their scenes, and texture memories.
export { generateProgram, generateScene, NOT_GENERATED, RANDOM_TEXTURE_LAYOUT } from './randomProgram.ts';
export { generateTextureMemory } from './randomTextureMemory.ts';
