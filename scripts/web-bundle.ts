// What the browser downloads, read from a production build (Vite's manifest, `build.manifest`): the
// JavaScript of the first paint (sign-in routes and the shell with /dashboard), each screen's own
// JavaScript, and where Mermaid's code lives. Used by the budget test (tests/budgets/) and `npm run bench:web`.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

/** One chunk of .vite/manifest.json; keys are source paths (entries) or `_name-hash.js` (shared chunks). */
export interface ManifestChunk {
  file: string;
  src?: string;
  name?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

/** Sizes in kB of 1,000 bytes, gzip level 9 (the .gz files the build writes beside each asset). */
export const KB = 1000;
export const BUDGETS = { shellKb: 200, screenKb: 60 } as const;

/** The SPA's page: its entry chunk and every chunk it imports statically (what index.html modulepreloads). */
export const PAGE_ENTRY = 'index.html';
/** The page every sign-in answer comes back to (MSAL's redirect bridge): part of signing in. */
export const REDIRECT_ENTRY = 'redirect.html';
/**
 * The routes drawn at first paint: the landing page, the sign-in routes, the shell and /dashboard. Today
 * they are in the entry; should one become lazy, its chunk and static imports still count in the shell.
 */
export const FIRST_PAINT_ROUTE_MODULES = ['landing', 'sign-in', 'redirect-login', 'sign-out', 'shell', 'dashboard', 'root'].map((name) => `src/routes/${name}.lazy.tsx`);
/** The screen that may load Mermaid (dynamically), and the packages that make up Mermaid's code. */
export const MERMAID_SCREEN = 'src/routes/workflows.lazy.tsx';
export const MERMAID_PACKAGES = /node_modules\/(mermaid|@mermaid-js\/[^/]+|elkjs|d3|d3-[^/]+|dagre-d3-es|cytoscape[^/]*|khroma|katex|roughjs|langium|chevrotain[^/]*)\//;

export interface ChunkSize {
  file: string;
  bytes: number;
  gzip: number;
}

export interface ScreenReport {
  /** The route module, e.g. src/routes/users.lazy.tsx. */
  src: string;
  /** Its own JavaScript: the chunk and what it imports statically, minus what the shell already loaded. */
  chunks: ChunkSize[];
  gzip: number;
  /** Loaded on demand from the screen (e.g. Mermaid), not counted in its own size. */
  dynamic: ChunkSize[];
}

export interface BundleReport {
  dir: string;
  shell: { chunks: ChunkSize[]; gzip: number; css: ChunkSize[] };
  screens: ScreenReport[];
  /** Other dynamic entries (neither a screen nor Mermaid), e.g. the toast region loaded after first paint. */
  others: ScreenReport[];
  mermaid: {
    /** Chunks holding Mermaid-family code. */
    chunks: string[];
    /** Chunks with Mermaid-family code reachable (statically or dynamically) other than through MERMAID_SCREEN. */
    leaks: { file: string; from: string; packages: string[] }[];
    /** The Mermaid chunks reachable from MERMAID_SCREEN (must not be empty: otherwise the detection is broken). */
    fromWorkflows: string[];
  };
}

export function readManifest(dir: string): Manifest {
  const file = path.join(dir, '.vite', 'manifest.json');
  if (!fs.existsSync(file)) throw new Error(`No Vite manifest at ${file}: build first (npm run build; vite.config.ts sets build.manifest).`);
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest;
}

const gzipCache = new Map<string, ChunkSize>();
export function sizeOf(dir: string, file: string): ChunkSize {
  const full = path.join(dir, file);
  const cached = gzipCache.get(full);
  if (cached) return cached;
  const content = fs.readFileSync(full);
  const size = { file, bytes: content.length, gzip: zlib.gzipSync(content, { level: 9 }).length };
  gzipCache.set(full, size);
  return size;
}

/** The manifest keys reached from `starts` through static imports (and dynamic ones when asked). */
export function closure(manifest: Manifest, starts: string[], options: { dynamic?: boolean; avoid?: Set<string> } = {}): Set<string> {
  const seen = new Set<string>();
  const stack = starts.filter((key) => manifest[key] && !options.avoid?.has(key));
  while (stack.length) {
    const key = stack.pop()!;
    if (seen.has(key)) continue;
    seen.add(key);
    const chunk = manifest[key]!;
    const next = [...(chunk.imports ?? []), ...(options.dynamic ? (chunk.dynamicImports ?? []) : [])];
    for (const n of next) if (manifest[n] && !seen.has(n) && !options.avoid?.has(n)) stack.push(n);
  }
  return seen;
}

const jsSizes = (dir: string, manifest: Manifest, keys: Iterable<string>) =>
  [...keys].map((key) => manifest[key]!.file).filter((file) => file.endsWith('.js')).map((file) => sizeOf(dir, file));
const total = (sizes: ChunkSize[]) => sizes.reduce((sum, s) => sum + s.gzip, 0);

/** The node_modules packages of Mermaid's family in a chunk, read from its source map. */
export function mermaidPackagesIn(dir: string, file: string): string[] {
  const mapFile = path.join(dir, `${file}.map`);
  if (!fs.existsSync(mapFile)) {
    // Rolldown's own small helpers (runtime, preload helper) come without a map; any real chunk has one.
    if (fs.statSync(path.join(dir, file)).size < 4096) return [];
    throw new Error(`No source map for ${file}: the budget check reads them (vite.config.ts: build.sourcemap).`);
  }
  const sources = (JSON.parse(fs.readFileSync(mapFile, 'utf8')) as { sources: string[] }).sources;
  return [...new Set(sources.map((s) => MERMAID_PACKAGES.exec(s)?.[1]).filter((p): p is string => Boolean(p)))].sort();
}

export function analyseBuild(dir: string): BundleReport {
  const manifest = readManifest(dir);
  if (!manifest[PAGE_ENTRY]) throw new Error(`The manifest of ${dir} has no ${PAGE_ENTRY} entry.`);
  const shellKeys = closure(manifest, [PAGE_ENTRY, REDIRECT_ENTRY, ...FIRST_PAINT_ROUTE_MODULES]);
  const shellChunks = jsSizes(dir, manifest, shellKeys);
  const css = [...new Set([...shellKeys].flatMap((key) => manifest[key]!.css ?? []))].map((file) => sizeOf(dir, file));

  const describe = (key: string): ScreenReport => {
    const own = [...closure(manifest, [key])].filter((k) => !shellKeys.has(k));
    const chunks = jsSizes(dir, manifest, own);
    const ownSet = new Set(own);
    const dynamicKeys = [...closure(manifest, own, { dynamic: true, avoid: shellKeys })].filter((k) => !ownSet.has(k));
    return { src: key, chunks, gzip: total(chunks), dynamic: jsSizes(dir, manifest, dynamicKeys) };
  };
  const dynamicEntries = Object.keys(manifest).filter((key) => manifest[key]!.isDynamicEntry && !shellKeys.has(key));
  const screens = dynamicEntries.filter((key) => /^src\/routes\/.*\.lazy\.tsx$/.test(key)).sort().map(describe);
  const mermaidKeys = new Set(Object.keys(manifest).filter((key) => manifest[key]!.file.endsWith('.js') && mermaidPackagesIn(dir, manifest[key]!.file).length));
  const fromWorkflowsKeys = new Set(closure(manifest, [MERMAID_SCREEN], { dynamic: true, avoid: shellKeys }));
  const others = dynamicEntries
    .filter((key) => !/^src\/routes\/.*\.lazy\.tsx$/.test(key) && !mermaidKeys.has(key) && !fromWorkflowsKeys.has(key))
    .sort()
    .map(describe);

  // Everything reachable from the page (and every other entry, e.g. redirect.html) without going through /workflows.
  const avoid = new Set([MERMAID_SCREEN]);
  const leaks: BundleReport['mermaid']['leaks'] = [];
  for (const entry of Object.keys(manifest).filter((key) => manifest[key]!.isEntry)) {
    for (const key of closure(manifest, [entry], { dynamic: true, avoid })) {
      if (mermaidKeys.has(key) && !leaks.some((l) => l.file === manifest[key]!.file)) {
        leaks.push({ file: manifest[key]!.file, from: entry, packages: mermaidPackagesIn(dir, manifest[key]!.file) });
      }
    }
  }
  return {
    dir,
    shell: { chunks: shellChunks, gzip: total(shellChunks), css },
    screens,
    others,
    mermaid: {
      chunks: [...mermaidKeys].map((key) => manifest[key]!.file).sort(),
      leaks,
      fromWorkflows: [...fromWorkflowsKeys].filter((key) => mermaidKeys.has(key)).map((key) => manifest[key]!.file).sort(),
    },
  };
}

const kb = (bytes: number) => (bytes / KB).toFixed(1);

/** The report as text: every size, against its budget. */
export function formatReport(report: BundleReport, budgets: { shellKb: number; screenKb: number } = BUDGETS): string {
  const lines: string[] = [];
  const mark = (gzip: number, budgetKb: number) => (gzip <= budgetKb * KB ? 'ok' : 'OVER BUDGET');
  lines.push(`Browser budgets of ${report.dir} (gzip -9, 1 kB = 1,000 bytes)`);
  lines.push('');
  lines.push(`Shell (sign-in routes and redirect page, shell, /dashboard): ${kb(report.shell.gzip)} kB of ${budgets.shellKb} kB  ${mark(report.shell.gzip, budgets.shellKb)}`);
  for (const c of [...report.shell.chunks].sort((a, b) => b.gzip - a.gzip)) lines.push(`  ${kb(c.gzip).padStart(7)} kB  (${kb(c.bytes)} kB raw)  ${c.file}`);
  for (const c of report.shell.css) lines.push(`  ${kb(c.gzip).padStart(7)} kB  (${kb(c.bytes)} kB raw)  ${c.file}  [CSS, not counted]`);
  lines.push('');
  lines.push(`Screens, own JavaScript beyond the shell (budget ${budgets.screenKb} kB each):`);
  for (const s of [...report.screens, ...report.others]) {
    const isScreen = report.screens.includes(s);
    lines.push(`  ${kb(s.gzip).padStart(7)} kB  ${s.src}${isScreen ? `  ${mark(s.gzip, budgets.screenKb)}` : '  [loaded after first paint]'}`);
    for (const c of s.chunks) lines.push(`             ${kb(c.gzip).padStart(7)} kB  ${c.file}`);
    if (s.dynamic.length) lines.push(`             + on demand: ${s.dynamic.length} chunks, ${kb(total(s.dynamic))} kB (not counted)`);
  }
  lines.push('');
  lines.push(`Mermaid family (${report.mermaid.chunks.length} chunks): ${report.mermaid.fromWorkflows.length} reachable from ${MERMAID_SCREEN}, ${report.mermaid.leaks.length} reachable otherwise`);
  for (const leak of report.mermaid.leaks) lines.push(`  LEAK ${leak.file} (${leak.packages.join(', ')}) reachable from ${leak.from}`);
  return lines.join('\n');
}

/** What exceeds a budget, one line each (empty when all is well). */
export function budgetFailures(report: BundleReport, budgets: { shellKb: number; screenKb: number } = BUDGETS): string[] {
  const failures: string[] = [];
  if (report.shell.gzip > budgets.shellKb * KB) failures.push(`shell: ${kb(report.shell.gzip)} kB > ${budgets.shellKb} kB`);
  for (const s of report.screens) if (s.gzip > budgets.screenKb * KB) failures.push(`${s.src}: ${kb(s.gzip)} kB > ${budgets.screenKb} kB`);
  for (const leak of report.mermaid.leaks) failures.push(`Mermaid code outside /workflows: ${leak.file} (${leak.packages.join(', ')}) reachable from ${leak.from}`);
  if (!report.mermaid.fromWorkflows.length) failures.push(`no Mermaid chunk is reachable from ${MERMAID_SCREEN}: the detection no longer sees Mermaid`);
  return failures;
}

// `node --import tsx scripts/web-bundle.ts [dir]`: prints the report of a build.
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const report = analyseBuild(path.resolve(process.argv[2] ?? process.env.WEB_ROOT ?? 'dist'));
  console.log(formatReport(report));
  const failures = budgetFailures(report);
  if (failures.length) {
    console.error(`\n${failures.join('\n')}`);
    process.exitCode = 1;
  }
}
