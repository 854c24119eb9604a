/**
 * The build puts V8's compile hint at the top of every script (scripts/compile-hints.ts), after Vite has put its
 * preload helper there, and shifts a source map's lines with it; assets and a second pass are left alone.
 */
import type { Rolldown } from 'vite';
import { describe, expect, it } from 'vitest';
import { addCompileHints, COMPILE_HINT } from '../../scripts/compile-hints';

const chunk = (fileName: string, code: string) => ({ type: 'chunk', fileName, code }) as unknown as Rolldown.OutputChunk;
const asset = (fileName: string, source: string) => ({ type: 'asset', fileName, source }) as unknown as Rolldown.OutputAsset;

describe('addCompileHints', () => {
  it('puts the hint on the first line of each chunk, above the preload helper', () => {
    const entry = 'const __vite__mapDeps=(i)=>i;\nimport "./a.js";\n';
    const bundle: Rolldown.OutputBundle = { 'index.js': chunk('index.js', entry), 'a.js': chunk('a.js', 'export const a = 1;\n') };
    addCompileHints(bundle);
    expect((bundle['index.js'] as Rolldown.OutputChunk).code).toBe(`//# allFunctionsCalledOnLoad\n${entry}`);
    expect((bundle['a.js'] as Rolldown.OutputChunk).code.split('\n')[0]).toBe('//# allFunctionsCalledOnLoad');
  });

  it('shifts a chunk’s source map by the one line it adds, and leaves other assets as they are', () => {
    const map = { version: 3, sources: ['a.ts'], names: [], mappings: 'AAAA;AACA' };
    const css = 'body{color:red}';
    const bundle: Rolldown.OutputBundle = {
      'a.js': chunk('a.js', 'let a;\nlet b;\n'),
      'a.js.map': asset('a.js.map', JSON.stringify(map)),
      'a.css': asset('a.css', css),
    };
    addCompileHints(bundle);
    expect(JSON.parse((bundle['a.js.map'] as Rolldown.OutputAsset).source as string)).toEqual({ ...map, mappings: ';AAAA;AACA' });
    expect((bundle['a.css'] as Rolldown.OutputAsset).source).toBe(css);
  });

  it('adds the hint once when run twice', () => {
    const bundle: Rolldown.OutputBundle = { 'a.js': chunk('a.js', 'let a;\n') };
    addCompileHints(bundle);
    addCompileHints(bundle);
    expect((bundle['a.js'] as Rolldown.OutputChunk).code).toBe(`${COMPILE_HINT}let a;\n`);
  });
});
