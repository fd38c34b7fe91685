/**
 * A hot loop compiled once per set of typed arrays it reads and writes (ADR 0124).
 *
 * On Node 20 (V8 11), a loop over typed arrays held in parameters or object fields reloads each
 * array's data pointer and length at every access (TurboFan hoists no loads out of loops): the
 * search's facet scan over 250,000 hits took 5.1 ms so, and 2.0 ms when the same loop captured its
 * arrays in a closure that V8 compiles as the only one of its function, where they are constants.
 * The index's columns change only when the index grows, and the scans' outputs are reused buffers,
 * so a scan is worth compiling for them: `specialized(factory)` gives a function that returns the
 * factory's loop with those arrays captured, compiled from the factory's own source (a new function,
 * so V8 treats its one closure as constant), and the same loop again while the arrays are the same.
 *
 * The factory must therefore be self-contained: it may use its parameters and JavaScript's globals,
 * nothing from its module (no imported function or constant). When code cannot be compiled from a
 * string (node --disallow-code-generation-from-strings), the factory itself is used: the same loop,
 * slower.
 */

/** A tree of weak maps, one level an array: the path of a loop's arrays leads to it. */
type Variants = WeakMap<object, unknown>;

export const specialized = <Arrays extends [object, ...object[]], Loop>(
  factory: (...arrays: Arrays) => Loop,
): ((...arrays: Arrays) => Loop) => {
  const source = `return (${factory.toString()});`;
  // A new function each time, from a source of its own (V8 caches functions compiled from equal
  // strings, feedback included): closures of one function literal share its feedback, and V8
  // treats captured arrays as constants only while a literal has had a single closure.
  let compiled = 0;
  let compile = () =>
    (new Function(`${source}\n// variant ${++compiled}`) as () => typeof factory)();
  try {
    compile();
  } catch {
    compile = () => factory;
  }
  // Weak at every level: a loop goes when any of its arrays is dropped elsewhere (the index grew,
  // or was rebuilt), although the loop itself holds them all (weak maps see through such cycles).
  const variants: Variants = new WeakMap();
  return (...arrays) => {
    let level = variants;
    for (let i = 0; i < arrays.length - 1; i++) {
      let next = level.get(arrays[i]) as Variants | undefined;
      if (next === undefined) {
        next = new WeakMap();
        level.set(arrays[i], next);
      }
      level = next;
    }
    const last = arrays[arrays.length - 1];
    let loop = level.get(last) as Loop | undefined;
    if (loop === undefined) {
      loop = compile()(...arrays);
      level.set(last, loop);
    }
    return loop;
  };
};
