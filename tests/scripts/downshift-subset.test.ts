// scripts/downshift-subset.ts: the build keeps only the downshift hooks the portal imports, and those still
// carry their stateChangeTypes.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { rolldown, type Plugin } from 'rolldown';
import { describe, expect, it } from 'vitest';
import { DOWNSHIFT_HOOKS, subsetDownshift } from '../../scripts/downshift-subset.ts';

const DOWNSHIFT = path.resolve('node_modules/downshift/dist/downshift.esm.mjs');
const original = fs.readFileSync(DOWNSHIFT, 'utf8');

/** A scratch folder under node_modules, so that what is written there resolves packages as the app does. */
function withScratch<T>(run: (dir: string) => Promise<T>): Promise<T> {
  fs.mkdirSync(path.resolve('node_modules/.cache'), { recursive: true });
  const dir = fs.mkdtempSync(path.resolve('node_modules/.cache/downshift-subset-'));
  return run(dir).finally(() => fs.rmSync(dir, { recursive: true, force: true }));
}

/** The JavaScript of a production bundle of `source` (an entry module), with or without the subset. */
function bundle(source: string, subset: boolean): Promise<string> {
  return withScratch(async (dir) => {
    const entry = path.join(dir, 'entry.mjs');
    fs.writeFileSync(entry, source);
    const plugin: Plugin = { name: 'subset', transform: (code, id) => (subset && id === DOWNSHIFT ? { code: subsetDownshift(code) } : null) };
    const build = await rolldown({
      input: entry,
      external: ['react', 'react-dom'],
      plugins: [plugin],
      transform: { define: { 'process.env.NODE_ENV': '"production"' } },
      logLevel: 'silent',
    });
    const { output } = await build.generate({ format: 'esm' });
    return output.map((chunk) => ('code' in chunk ? chunk.code : '')).join('\n');
  });
}

describe('the downshift subset of the build', () => {
  it('drops useSelect, useMultipleSelection and useTagGroup from a bundle that imports useCombobox only', async () => {
    const source = "import { useCombobox } from 'downshift';\nexport const hook = useCombobox;\n";
    const [full, subset] = await Promise.all([bundle(source, false), bundle(source, true)]);
    // Without the subset they are all there: what makes this test able to fail.
    for (const marker of ['Invalid useTagGroup reducer action', 'function useSelect(', 'function useMultipleSelection(']) {
      expect(full).toContain(marker);
      expect(subset).not.toContain(marker);
    }
    expect(subset).toContain('function useCombobox(');
    expect(subset.length).toBeLessThan(full.length * 0.7);
  });

  it('keeps every hook exported with its stateChangeTypes when the module runs', async () => {
    const code = await bundle("export * from 'downshift';\n", true);
    await withScratch(async (dir) => {
      const file = path.join(dir, 'bundle.mjs');
      fs.writeFileSync(file, code);
      const module = (await import(pathToFileURL(file).href)) as Record<string, { stateChangeTypes?: Record<string, unknown> }>;
      for (const name of Object.keys(DOWNSHIFT_HOOKS)) expect(module[name]?.stateChangeTypes, name).toBeTruthy();
      expect(module.useCombobox!.stateChangeTypes!.InputKeyDownEscape).toBeDefined();
    });
  });

  it('stops the build with a clear message when downshift no longer looks as expected', () => {
    expect(() => subsetDownshift(original.replace('useSelect.stateChangeTypes = ', 'useSelect.changeTypes = '))).toThrow(/no `useSelect.stateChangeTypes = …` statement/);
    expect(() => subsetDownshift(original.replace('export { Downshift as default', 'export { Downshift as Downshift'))).toThrow(/export list changed/);
  });
});
