// Test helper: the message of the SceneError a scene or material loader throws (fails the test when it throws nothing else).
import { expect } from 'vitest';
import { SceneError } from '../../src/golden/scene.ts';

export const sceneErrorOf = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(SceneError);
    return (e as Error).message;
  }
  throw new Error('no error');
};
