import { fromPromise, type NonReducibleUnknown } from 'xstate';

/**
 * The placeholder of a side effect in a pure machine: the screen (or the test)
 * supplies the real actor with `.provide()`. Invoked without it, it fails loudly.
 */
export function requiredActor<TOutput, TInput = NonReducibleUnknown>(name: string) {
  return fromPromise<TOutput, TInput>(async () => {
    throw new Error(`The actor '${name}' must be supplied with .provide()`);
  });
}
