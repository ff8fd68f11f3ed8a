// A Vite plugin that lets the build drop the downshift hooks the portal does not use (useSelect,
// useMultipleSelection, useTagGroup): downshift (pinned in package.json) ships one ES module whose
// top-level `hook.stateChangeTypes = …` statements are side effects to a bundler, so every hook stays
// in the users screen's chunk whichever one is imported. Each statement becomes a pure-annotated
// Object.assign on the exported binding: the same function object gets the same property when the
// module runs, and an unused hook, with its reducer, goes. About 4 kB gzipped off the users screen.
import type { Plugin } from 'vite';

const DOWNSHIFT_ESM = '/node_modules/downshift/dist/downshift.esm.mjs';

/** Exported name → the local function carrying `.stateChangeTypes` in downshift's ES module. */
export const DOWNSHIFT_HOOKS = { useSelect: 'useSelect', useCombobox: 'useCombobox', useMultipleSelection: 'useMultipleSelection', useTagGroup: '_useTagGroup' } as const;

const EXPORTS = 'export { Downshift as default, resetIdCounter, useCombobox, useMultipleSelection, useSelect, _useTagGroup as useTagGroup };';

/** The module's code with each hook exported through a pure binding; throws if downshift no longer looks as expected. */
export function subsetDownshift(code: string): string {
  let out = code;
  const bindings: string[] = [];
  for (const [exported, local] of Object.entries(DOWNSHIFT_HOOKS)) {
    const statement = new RegExp(`^${local.replace('$', '\\$')}\\.stateChangeTypes = (stateChangeTypes(?:\\$\\d)?);$`, 'm');
    const match = statement.exec(out);
    if (!match) throw new Error(`downshift-subset: no \`${local}.stateChangeTypes = …\` statement in downshift's module; update scripts/downshift-subset.ts.`);
    out = out.replace(statement, '');
    bindings.push(`var ${exported}$subset = /*#__PURE__*/ Object.assign(${local}, { stateChangeTypes: ${match[1]} });`);
  }
  if (!out.includes(EXPORTS)) throw new Error("downshift-subset: downshift's export list changed; update scripts/downshift-subset.ts.");
  const exports = `export { Downshift as default, resetIdCounter, ${Object.keys(DOWNSHIFT_HOOKS)
    .map((name) => `${name}$subset as ${name}`)
    .join(', ')} };`;
  return out.replace(EXPORTS, `${bindings.join('\n')}\n${exports}`);
}

export function downshiftSubset(): Plugin {
  let seen = false;
  return {
    name: 'portail:downshift-subset',
    apply: 'build',
    transform(code, id) {
      if (!id.split('?')[0]!.replaceAll('\\', '/').endsWith(DOWNSHIFT_ESM)) return null;
      seen = true;
      try {
        return { code: subsetDownshift(code), map: null };
      } catch (error) {
        this.error((error as Error).message);
      }
    },
    buildEnd(error) {
      // The users screen imports downshift: a build that never saw its module resolved it elsewhere (another file, a new version).
      if (!error && !seen) this.warn(`downshift-subset: ${DOWNSHIFT_ESM} was not part of this build.`);
    },
  };
}
