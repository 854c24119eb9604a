/**
 * Import cycles, type imports counted (`npm run lint`). A cycle means two modules can only be understood
 * together: one of them holds a piece the other should own, or a leaf module is missing. The renderer's
 * Vue components are left out: dependency-cruiser does not read .vue files, and the screens' modules form
 * no cycle that a store's import would hide.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Break the cycle: move what both need into a leaf module, or pass it in where it is used.',
      from: { path: '^src-', pathNot: '^src-renderer' },
      to: { circular: true },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|out|test|bench)/' },
  },
};
